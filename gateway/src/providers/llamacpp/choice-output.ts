import type { ChatChoice, ChatStreamEvent, ToolCallDelta } from '../contracts/chat.js';
import type { FinishReason } from '../contracts/sampling.js';
import { type StopReason, toFinishReason } from './generation-options.js';
import { newToolCall, parseToolCallJson, parseTruncatedToolCallJson } from './tool-call-json.js';
import type { ToolMode } from './tool-mode.js';

type Emit = (event: ChatStreamEvent) => void;

/**
 * One choice's output: streams text as it comes unless it may still turn out to be a tool call
 * (always when forced, while it starts with `{` in auto mode), then reads the complete output as
 * a call or as content. One call per turn: parallel_tool_calls is honoured by never making more.
 */
export class ChoiceOutput {
  private held = '';
  private streaming = false;
  private roleSent = false;

  constructor(
    private readonly index: number,
    private readonly mode: ToolMode,
    private readonly emit?: Emit,
  ) {}

  /** Takes a chunk of generated text (node-llama-cpp's onTextChunk). */
  push(text: string): void {
    if (!this.emit || text.length === 0) return;
    if (!this.streaming) {
      this.held += text;
      if (this.mayBeToolCall(this.held)) return;
      this.streaming = true;
      text = this.held;
      this.held = '';
    }
    this.delta({ content: text });
  }

  /** Builds the choice from the complete output and sends what the stream still lacks. */
  finish(response: string, stopReason: StopReason): ChatChoice {
    const finishReason = toFinishReason(stopReason);
    const call = this.readToolCall(response, finishReason);
    if (call) {
      const toolCall = newToolCall(call.name, call.arguments);
      this.delta({
        tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: call.name, arguments: '' } }],
      });
      this.delta({ tool_calls: [{ index: 0, function: { arguments: call.arguments } }] });
      return this.end(
        { role: 'assistant', content: null, tool_calls: [toolCall] },
        finishReason === 'length' ? 'length' : 'tool_calls',
      );
    }
    if (this.held.length > 0 || !this.roleSent) this.delta({ content: this.held });
    this.held = '';
    return this.end({ role: 'assistant', content: response }, finishReason);
  }

  private mayBeToolCall(text: string): boolean {
    if (this.mode.kind !== 'auto') return this.mode.kind === 'forced';
    const start = text.trimStart();
    return start === '' || start.startsWith('{');
  }

  private readToolCall(response: string, finishReason: FinishReason): { name: string; arguments: string } | undefined {
    if (this.mode.kind === 'none') return undefined;
    const call = parseToolCallJson(response, this.mode.names);
    if (call || this.mode.kind !== 'forced' || finishReason !== 'length') return call;
    return parseTruncatedToolCallJson(response, this.mode.names);
  }

  private delta(fields: { content?: string; tool_calls?: ToolCallDelta[] }): void {
    if (!this.emit) return;
    this.emit({ type: 'delta', index: this.index, ...(this.roleSent ? {} : { role: 'assistant' }), ...fields });
    this.roleSent = true;
  }

  private end(message: ChatChoice['message'], finishReason: FinishReason): ChatChoice {
    this.emit?.({ type: 'finish', index: this.index, finish_reason: finishReason });
    return { index: this.index, message, finish_reason: finishReason };
  }
}
