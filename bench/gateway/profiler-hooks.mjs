// Preloaded (`node --import`) into a gateway the benchmarks start, of any build: V8's sampling CPU
// profiler over IPC (`'profile-start'`, then `'profile-stop'` -> the profile), so a profile covers
// the measured load only; V8's sampling heap profiler the same way (`'heap-start'`, `'heap-stop'`: every
// allocation sampled, collected objects included); `'memory'` -> process.memoryUsage() (after a full GC
// with --expose-gc).
import { Session } from 'node:inspector/promises';

const inspector = new Session();
inspector.connect();
process.on('message', async (message) => {
  if (message === 'profile-start') {
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
    await inspector.post('Profiler.start');
    process.send?.('profiling');
  } else if (message === 'heap-start') {
    await inspector.post('HeapProfiler.enable');
    await inspector.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    process.send?.('profiling');
  } else if (message === 'heap-stop') {
    const { profile } = await inspector.post('HeapProfiler.stopSampling');
    process.send?.(profile);
  } else if (message === 'memory') {
    if (typeof globalThis.gc === 'function') globalThis.gc();
    process.send?.(process.memoryUsage());
  } else if (message === 'profile-stop') {
    const { profile } = await inspector.post('Profiler.stop');
    process.send?.(profile);
  }
});
