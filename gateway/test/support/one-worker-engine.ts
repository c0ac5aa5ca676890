import type { ProviderFactory } from '../../src/providers/contracts/provider-instance.js';

/**
 * A local OCR engine with one worker that reads jobs first in, first out (as the OCR workers do), a
 * PNG taking `msPerKilopixel` per thousand pixels: a large image is a long job, a tiny one a short
 * job. `finished` lists each job's image width in the order the jobs ended.
 */
export function oneWorkerEngine(msPerKilopixel: number) {
  const finished: number[] = [];
  let waiting = 0;
  let worker = Promise.resolve();
  const factory: ProviderFactory = (context) => ({
    id: context.id,
    type: 'one-worker',
    capabilities: {
      ocr: {
        ocr: async ({ document }) => {
          const width = document.readUInt32BE(16);
          const height = document.readUInt32BE(20);
          waiting++;
          const turn = worker.then(async () => {
            waiting--;
            await new Promise((resolve) => setTimeout(resolve, (width * height * msPerKilopixel) / 1000));
            finished.push(width);
          });
          worker = turn;
          await turn;
          return { pages: [{ index: 0, width, height, text: `read ${width}`, blocks: [], source: 'ocr' }] };
        },
      },
    },
    status: () => ({ state: 'ready' }),
    queues: () => [{ queue: 'ocr_workers', waiting, running: waiting > 0 ? 1 : 0 }],
    close: async () => undefined,
  });
  return { factory, finished };
}
