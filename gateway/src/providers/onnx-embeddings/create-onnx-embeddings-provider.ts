import { ProviderError } from '../_shared/provider-error.js';
import type { EmbeddingRequest, EmbeddingResult } from '../contracts/embeddings.js';
import type { EngineStatus, ProviderFactory } from '../contracts/provider-instance.js';
import { builtinModelDir } from './builtin-model-dir.js';
import { createLocalClassifiers, type OnModel, type TargetExamples } from './local-classifiers.js';
import { SentenceEmbedder } from './sentence-embedder.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Local sentence embeddings from an ONNX model folder (tokenizer.json + onnx/<file>): by default the
 * built-in all-MiniLM-L6-v2 (384 dimensions), so /v1/embeddings works with no config or download.
 * Options: `model_dir`, `onnx_file` (default model_q4.onnx), `max_tokens` (default 256, as
 * sentence-transformers trains MiniLM), `idle_unload_ms` (default 300000; 0 keeps it loaded). The
 * same model moderates and classifies (local-classifiers.ts): `moderation_threshold` (default 0.5),
 * `classifier_targets` ({target: {label: [examples]}}; default the moderation categories).
 *
 * The model loads on first use, not at start, and unloads when idle: the WebAssembly runtime holds
 * about 200 MB while loaded, more than the rest of an idle gateway, and a load takes about a second.
 */
export const createOnnxEmbeddingsProvider: ProviderFactory = (context) => {
  const options = context.options as Record<string, unknown>;
  const dir = typeof options.model_dir === 'string' ? options.model_dir : builtinModelDir();
  const onnxFile = typeof options.onnx_file === 'string' ? options.onnx_file : 'model_q4.onnx';
  const maxTokens = typeof options.max_tokens === 'number' ? options.max_tokens : 256;
  const idleUnloadMs =
    typeof options.idle_unload_ms === 'number' && options.idle_unload_ms >= 0 ? options.idle_unload_ms : 300_000;
  let loading: Promise<SentenceEmbedder> | undefined;
  let state: EngineStatus = { state: 'cold' };
  // One inference at a time: the WebAssembly engine runs on this thread anyway.
  let queue: Promise<unknown> = Promise.resolve();
  let running = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  const unload = (): void => {
    const pending = loading;
    loading = undefined;
    state = { state: 'cold' };
    // A load still running is not waited for (it cannot be interrupted): its session is released when it ends.
    if (pending) void pending.then((loaded) => loaded.close()).catch(() => undefined);
  };
  const unloadWhenIdle = (): void => {
    clearTimeout(idleTimer);
    if (idleUnloadMs === 0 || running > 0) return;
    idleTimer = setTimeout(() => {
      if (running === 0) {
        unload();
        context.logger.info(`onnx-embeddings: unloaded after ${idleUnloadMs} ms idle`);
      }
    }, idleUnloadMs);
    idleTimer.unref();
  };

  const embedder = (): Promise<SentenceEmbedder> => {
    if (!loading) {
      state = { state: 'loading' };
      loading = SentenceEmbedder.load({ dir, onnxFile, maxTokens }).then(
        (loaded) => {
          state = { state: 'ready' };
          context.logger.info(`onnx-embeddings: loaded ${dir}/onnx/${onnxFile}`);
          return loaded;
        },
        (error: unknown) => {
          loading = undefined;
          state = { state: 'unavailable', detail: (error as Error).message };
          throw new ProviderError(
            'unavailable',
            `Could not load the embedding model in ${dir}: ${(error as Error).message}`,
            { code: 'model_load_failed', cause: error },
          );
        },
      );
    }
    return loading;
  };

  /** Work on the loaded model, one inference at a time; the model stays loaded while any runs. */
  const onModel: OnModel = async (_signal, work) => {
    running++;
    clearTimeout(idleTimer);
    try {
      const model = await embedder();
      const run = queue.then(() => work(model));
      queue = run.catch(() => undefined);
      return await run;
    } finally {
      running--;
      unloadWhenIdle();
    }
  };

  async function embed(request: EmbeddingRequest): Promise<EmbeddingResult> {
    if (request.input.some((text) => text.length === 0))
      throw new ProviderError('invalid_request', 'Embedding inputs must not be empty strings.', { param: 'input' });
    return onModel(request.signal, async (model) => {
      const vectors: number[][] = [];
      let promptTokens = 0;
      for (const [index, text] of request.input.entries()) {
        if (request.signal.aborted) throw new ProviderError('aborted', 'The request was aborted.');
        const tokens = model.countTokens(text);
        if (tokens > model.maxTokens) {
          throw new ProviderError(
            'invalid_request',
            `Input ${index} is ${tokens} tokens long; this embedding model reads at most ${model.maxTokens}. Split the text into smaller passages.`,
            {
              param: 'input',
              code: 'context_length_exceeded',
            },
          );
        }
        const { vector } = await model.embed(text);
        promptTokens += tokens;
        vectors.push(Array.from(vector));
      }
      const size = vectors[0]?.length;
      if (request.dimensions !== undefined && size !== undefined && request.dimensions !== size) {
        throw new ProviderError(
          'invalid_request',
          `This model makes ${size}-dimensional embeddings; dimensions=${request.dimensions} is not available.`,
          { param: 'dimensions' },
        );
      }
      return { vectors, prompt_tokens: promptTokens };
    });
  }

  const classifiers = createLocalClassifiers(onModel, {
    threshold: typeof options.moderation_threshold === 'number' ? options.moderation_threshold : undefined,
    targets: isRecord(options.classifier_targets)
      ? (options.classifier_targets as Record<string, TargetExamples>)
      : undefined,
  });

  return {
    id: context.id,
    type: context.options.type,
    capabilities: { embeddings: { embed }, ...classifiers },
    status: () => state,
    close: async () => {
      clearTimeout(idleTimer);
      unload();
    },
  };
};
