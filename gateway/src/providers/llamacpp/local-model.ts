import { AsyncLocalStorage } from 'node:async_hooks';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type {
  ChatWrapper,
  Llama,
  LlamaChat,
  LlamaCompletion,
  LlamaContext,
  LlamaContextSequence,
  LlamaEmbeddingContext,
  LlamaModel,
} from 'node-llama-cpp';
import { ProviderError } from '../_shared/provider-error.js';
import type { EngineStatus, ProviderLogger } from '../contracts/provider-instance.js';
import type { StageTracer } from '../contracts/stage-tracer.js';
import { RequestQueue } from './request-queue.js';

export interface LocalModelSettings {
  threads: number;
  contextSize: number;
  idleUnloadMs: number;
  queueLimit: number;
}

/** A model that is in memory, with its one generation sequence. Valid only inside `LocalModel.use`. */
export interface LoadedModel {
  llama: Llama;
  model: LlamaModel;
  contextSize: number;
  sequence: LlamaContextSequence;
  chat: LlamaChat;
  completion: LlamaCompletion;
  embeddingContext(): Promise<LlamaEmbeddingContext>;
}

interface Resources {
  loaded: LoadedModel;
  context: LlamaContext;
  embedding?: Promise<LlamaEmbeddingContext>;
}

/**
 * One GGUF file: loaded on first use, kept warm, unloaded after `idleUnloadMs` without requests.
 * Requests run one at a time through a bounded queue.
 */
export class LocalModel {
  private readonly queue: RequestQueue;
  private resources: Promise<Resources> | undefined;
  private ready = false;
  private closed = false;
  private failure: string | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private unloading: Promise<void> = Promise.resolve();
  /** Resolving a chat wrapper from a Jinja template takes most of a cold start; reuse it while the file is unchanged. */
  private chatWrapper: { fileVersion: string; wrapper: ChatWrapper } | undefined;
  /** Aborts the running generation when the provider closes, before its context is disposed. */
  private readonly shutdown = new AbortController();
  private current: Promise<unknown> | undefined;

  constructor(
    readonly path: string,
    private readonly getLlama: () => Promise<Llama>,
    private readonly settings: LocalModelSettings,
    private readonly logger: ProviderLogger,
    private readonly tracer?: StageTracer,
  ) {
    this.queue = new RequestQueue(settings.queueLimit, () => this.scheduleUnload());
  }

  status(): EngineStatus {
    if (this.ready) return { state: 'ready' };
    if (this.resources) return { state: 'loading' };
    if (this.failure !== undefined) return { state: 'unavailable', detail: this.failure };
    return { state: 'cold' };
  }

  queueDepth(): { waiting: number; running: number } {
    return { waiting: this.queue.waitingCount, running: this.queue.busy ? 1 : 0 };
  }

  /**
   * Waits its turn in the queue (or fails fast when it is full), loads if needed, then runs `task`
   * with a signal that fires when the request is aborted or the provider closes.
   */
  use<T>(signal: AbortSignal, task: (loaded: LoadedModel, signal: AbortSignal) => Promise<T>): Promise<T> {
    const waiting = this.tracer?.start('llama.cpp queue', { 'switchyard.queue.waiting': this.queue.waitingCount });
    let started = false;
    // A waiting request starts when the one before it ends: its spans still belong to its own trace.
    const start = AsyncLocalStorage.bind(() => {
      started = true;
      waiting?.end();
      return this.runTask(signal, task);
    });
    const running = this.queue.run(signal, start);
    if (waiting)
      running.catch((error: unknown) => {
        if (started) return;
        waiting.fail(error);
        waiting.end();
      });
    return running;
  }

  private runTask<T>(signal: AbortSignal, task: (loaded: LoadedModel, signal: AbortSignal) => Promise<T>): Promise<T> {
    clearTimeout(this.idleTimer);
    const run = (async () => {
      try {
        const loading = this.ready
          ? undefined
          : this.tracer?.start('llama.cpp model load', { 'switchyard.model.file': basename(this.path) });
        let loaded: LoadedModel;
        try {
          ({ loaded } = await this.load());
        } catch (error) {
          loading?.fail(error);
          throw error;
        } finally {
          loading?.end();
        }
        return await task(loaded, AbortSignal.any([signal, this.shutdown.signal]));
      } catch (error) {
        if (this.closed)
          throw new ProviderError('unavailable', 'The local llama.cpp engine shut down during the request.', {
            code: 'engine_closed',
            cause: error,
          });
        throw error;
      }
    })();
    this.current = run;
    return run;
  }

  async unload(): Promise<void> {
    clearTimeout(this.idleTimer);
    const resources = this.resources;
    this.resources = undefined;
    this.ready = false;
    if (!resources) return;
    this.unloading = resources
      .then(async ({ loaded, context, embedding }) => {
        loaded.chat.dispose({ disposeSequence: false });
        loaded.completion.dispose({ disposeSequence: false });
        await (await embedding?.catch(() => undefined))?.dispose();
        await context.dispose();
        await loaded.model.dispose();
        this.logger.info(`llamacpp: unloaded ${this.path}`);
      })
      .catch(() => undefined);
    await this.unloading;
  }

  async close(error: unknown): Promise<void> {
    this.closed = true;
    this.queue.rejectWaiting(error);
    this.shutdown.abort(error);
    await this.current?.catch(() => undefined);
    await this.unload();
  }

  private load(): Promise<Resources> {
    if (!this.resources) {
      const attempt = this.createResources();
      this.resources = attempt;
      attempt.then(
        () => {
          if (this.resources === attempt) this.ready = true;
        },
        () => {
          if (this.resources === attempt) this.resources = undefined;
        },
      );
    }
    return this.resources;
  }

  private async createResources(): Promise<Resources> {
    await this.unloading;
    try {
      const llama = await this.getLlama();
      const { LlamaChat, LlamaCompletion } = await import('node-llama-cpp');
      let model: LlamaModel;
      try {
        model = await llama.loadModel({ modelPath: this.path });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ProviderError(
          'invalid_input',
          `Could not load the model file ${this.path}: ${reason}. Is it a complete GGUF file?`,
          {
            code: 'model_load_failed',
            cause: error,
          },
        );
      }
      const requestedContextSize = Math.min(this.settings.contextSize, model.trainContextSize);
      const context = await model
        .createContext({ contextSize: requestedContextSize, threads: this.settings.threads, sequences: 1 })
        .catch(async (error: unknown) => {
          await model.dispose();
          throw error;
        });
      const sequence = context.getSequence();
      const contextSize = context.contextSize;
      const { mtimeMs, size } = await stat(this.path);
      const fileVersion = `${mtimeMs}:${size}`;
      const reusable = this.chatWrapper?.fileVersion === fileVersion ? this.chatWrapper.wrapper : undefined;
      const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: reusable ?? 'auto' });
      this.chatWrapper = { fileVersion, wrapper: chat.chatWrapper };
      const resources: Resources = {
        context,
        loaded: {
          llama,
          model,
          contextSize,
          sequence,
          chat,
          completion: new LlamaCompletion({ contextSequence: sequence }),
          embeddingContext: () => {
            resources.embedding ??= model
              .createEmbeddingContext({ contextSize, threads: this.settings.threads })
              .catch((error: unknown) => {
                resources.embedding = undefined;
                throw error;
              });
            return resources.embedding;
          },
        },
      };
      this.failure = undefined;
      this.logger.info(`llamacpp: loaded ${this.path}`);
      return resources;
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }

  private scheduleUnload(): void {
    clearTimeout(this.idleTimer);
    if (this.settings.idleUnloadMs === 0 || !this.resources) return;
    this.idleTimer = setTimeout(() => void this.unload(), this.settings.idleUnloadMs);
    this.idleTimer.unref();
  }
}
