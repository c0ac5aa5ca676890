import { AsyncLocalStorage } from 'node:async_hooks';
import type { StageSpan, StageTracer } from '../contracts/stage-tracer.js';

/**
 * The spans of one generation: prompt processing until the first token, then generation until the
 * end. The first token arrives in the engine's callback, so that span is started in the context the
 * generation began in.
 */
export class GenerationStages {
  private prompt: StageSpan | undefined;
  private generation: StageSpan | undefined;
  private readonly startGeneration: () => StageSpan | undefined;

  constructor(tracer: StageTracer | undefined, promptTokens: number) {
    this.prompt = tracer?.start('llama.cpp prompt', { 'gen_ai.usage.input_tokens': promptTokens });
    this.startGeneration = AsyncLocalStorage.bind(() => tracer?.start('llama.cpp generate'));
  }

  firstToken(): void {
    if (!this.prompt) return;
    this.prompt.end();
    this.prompt = undefined;
    this.generation = this.startGeneration();
  }

  end(outputTokens: number, error?: unknown): void {
    const open = this.generation ?? this.prompt;
    if (!open) return;
    if (this.generation) this.generation.set('gen_ai.usage.output_tokens', outputTokens);
    if (error) open.fail(error);
    this.prompt?.end();
    this.generation?.end();
    this.prompt = this.generation = undefined;
  }
}
