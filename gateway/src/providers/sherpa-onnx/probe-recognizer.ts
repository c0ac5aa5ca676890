import { spawn } from 'node:child_process';
import type { OfflineRecognizerConfig } from './sherpa-onnx-binding.js';
import { sherpaOnnxModulePath } from './sherpa-onnx-binding.js';

const PROBE_SCRIPT = `
const sherpa = require(process.argv[1]);
sherpa.OfflineRecognizer.createAsync(JSON.parse(process.argv[2])).then(
  () => process.exit(0),
  (error) => { process.stderr.write(String((error && error.message) || error)); process.exit(1); },
);`;

const MAX_DETAIL_CHARS = 600;

function lastLines(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_DETAIL_CHARS ? `…${trimmed.slice(-MAX_DETAIL_CHARS)}` : trimmed;
}

/**
 * Loads the recognizer once in a throw-away child process. sherpa-onnx calls exit() or abort() on
 * some broken models (a config it cannot validate, a model without the metadata it expects),
 * which would take the whole gateway with it; in a child only the probe dies.
 * Resolves with a problem description, or null when the model loads.
 */
export function probeRecognizer(config: OfflineRecognizerConfig, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    // In Electron, process.execPath is the app itself; ELECTRON_RUN_AS_NODE makes it plain Node.
    const child = spawn(process.execPath, ['-e', PROBE_SCRIPT, sherpaOnnxModulePath(), JSON.stringify(config)], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-8 * MAX_DETAIL_CHARS);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(`could not start the model check: ${error.message}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(null);
      if (timedOut) return resolve(`the model did not finish loading within ${Math.round(timeoutMs / 1000)} s`);
      const how = signal
        ? `the speech runtime crashed (${signal})`
        : `the speech runtime refused the model (exit code ${code})`;
      const detail = lastLines(stderr);
      resolve(detail ? `${how}: ${detail}` : how);
    });
  });
}
