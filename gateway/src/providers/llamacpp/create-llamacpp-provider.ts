import { NativeEngines } from '../_shared/native-engines.js';
import type { ProviderFactory } from '../contracts/provider-instance.js';
import { createLlamaCppChat } from './llamacpp-chat.js';
import { createLlamaCppCompletions } from './llamacpp-completions.js';
import { createLlamaCppEmbeddings } from './llamacpp-embeddings.js';
import { parseLlamaCppOptions } from './llamacpp-options.js';
import { ModelPool } from './model-pool.js';

export { listGgufModels } from './list-gguf-models.js';
export type { GgufModelFile } from './list-gguf-models.js';
export { readGgufSummary } from './read-gguf-summary.js';
export type { GgufSummary } from './read-gguf-summary.js';

/**
 * Local GGUF models through llama.cpp (node-llama-cpp's prebuilt CPU binaries; nothing is
 * downloaded). A request's model names a file in `models_dir` or an absolute path; each model
 * loads on first use and unloads after `idle_unload_ms` idle.
 */
export const createLlamaCppProvider: ProviderFactory = (context) => {
  const pool = new ModelPool(
    parseLlamaCppOptions(context.options, context.dataDir),
    context.logger,
    context.engines ?? new NativeEngines(),
    context.tracer,
  );
  return {
    id: context.id,
    type: context.options.type,
    capabilities: {
      chat: createLlamaCppChat(pool),
      completions: createLlamaCppCompletions(pool),
      embeddings: createLlamaCppEmbeddings(pool),
    },
    warm: async () => {
      await pool.engine();
    },
    status: () => pool.status(),
    modelStatus: (model) => pool.modelStatus(model),
    queues: () => pool.queues(),
    releaseModel: (model) => pool.release(model),
    close: () => pool.close(),
  };
};
