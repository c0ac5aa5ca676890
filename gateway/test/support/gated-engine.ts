import type { ProviderFactory } from '../../src/providers/contracts/provider-instance.js';

/** An OCR engine that warms until the test calls `finish`: the one thing warm-up tests need to control. */
export function gatedEngine() {
  let finish = () => {};
  const warmed = new Promise<void>((resolve) => (finish = resolve));
  let ready = false;
  const factory: ProviderFactory = (context) => ({
    id: context.id,
    type: 'gated',
    capabilities: {
      ocr: { ocr: async () => ({ pages: [{ index: 0, width: 1, height: 1, text: 'ok', blocks: [], source: 'ocr' }] }) },
    },
    warm: () => warmed.then(() => void (ready = true)),
    status: () => ({ state: ready ? 'ready' : 'loading' }),
    close: async () => undefined,
  });
  return { factory, finish };
}
