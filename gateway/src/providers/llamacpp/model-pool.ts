import type { Llama } from 'node-llama-cpp';
import { ProviderError } from '../_shared/provider-error.js';
import { basename } from 'node:path';
import type { NativeEngines } from '../_shared/native-engines.js';
import type { EngineStatus, ProviderLogger, QueueDepth } from '../contracts/provider-instance.js';
import type { StageTracer } from '../contracts/stage-tracer.js';
import type { LlamaCppOptions } from './llamacpp-options.js';
import { getLlamaEngine, subscribeToEngineLogs } from './llama-engine.js';
import { LocalModel } from './local-model.js';
import { resolveModelFile } from './resolve-model-file.js';

/** The llama.cpp engine of one provider instance and its models, keyed by file path. */
export class ModelPool {
  private llama: Promise<Llama> | undefined;
  private engineState: EngineStatus = { state: 'cold' };
  private readonly models = new Map<string, LocalModel>();
  private closed = false;
  private unsubscribeLogs: (() => void) | undefined;

  constructor(
    private readonly options: LlamaCppOptions,
    private readonly logger: ProviderLogger,
    /** Where the process-wide llama.cpp engine is kept (see llama-engine.ts). */
    private readonly engines: NativeEngines,
    /** Where queue waits, model loads, prompt processing and generation record their spans. */
    readonly tracer?: StageTracer,
  ) {}

  /** Resolves the request's model name to its file and the model object (not loaded yet). */
  model(name: string): LocalModel {
    if (this.closed)
      throw new ProviderError('unavailable', 'The local llama.cpp engine is shut down.', { code: 'engine_closed' });
    const path = resolveModelFile(this.options.modelsDir, name);
    let model = this.models.get(path);
    if (!model) {
      model = new LocalModel(path, () => this.engine(), this.options, this.logger, this.tracer);
      this.models.set(path, model);
    }
    return model;
  }

  modelStatus(name: string): EngineStatus {
    let path: string;
    try {
      path = resolveModelFile(this.options.modelsDir, name);
    } catch (error) {
      return { state: 'unavailable', detail: (error as Error).message };
    }
    return this.models.get(path)?.status() ?? { state: 'cold' };
  }

  /** Unloads the model behind `name` and forgets it. */
  async release(name: string): Promise<void> {
    let path: string;
    try {
      path = resolveModelFile(this.options.modelsDir, name);
    } catch {
      return;
    }
    const model = this.models.get(path);
    this.models.delete(path);
    await model?.close(new ProviderError('unavailable', `The model ${name} was deleted.`, { code: 'model_deleted' }));
  }

  status(): EngineStatus {
    return this.engineState;
  }

  queues(): QueueDepth[] {
    return [...this.models.entries()].map(([path, model]) => ({
      queue: basename(path, '.gguf'),
      ...model.queueDepth(),
    }));
  }

  /** The shared native engine (see llama-engine.ts). */
  engine(): Promise<Llama> {
    if (!this.llama) {
      this.engineState = { state: 'loading' };
      this.unsubscribeLogs ??= subscribeToEngineLogs(this.engines, this.logger);
      this.llama = getLlamaEngine(this.engines, this.options.gpu).then(
        (engine) => {
          this.engineState = { state: 'ready' };
          return engine;
        },
        (error: unknown) => {
          this.engineState = { state: 'unavailable', detail: (error as Error).message };
          this.llama = undefined;
          throw error;
        },
      );
    }
    return this.llama;
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new ProviderError('unavailable', 'The local llama.cpp engine is shutting down.', {
      code: 'engine_closed',
    });
    await Promise.all([...this.models.values()].map((model) => model.close(error)));
    this.models.clear();
    this.unsubscribeLogs?.();
    this.unsubscribeLogs = undefined;
    this.llama = undefined;
    this.engineState = { state: 'cold' };
  }
}
