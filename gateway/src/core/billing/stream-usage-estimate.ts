import { approximateTokens } from '../../providers/_shared/approximate-tokens.js';
import { chatMessageText } from '../../providers/_shared/chat-message-text.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';

/**
 * A running estimate of a stream's usage, for a client that disconnects before the final usage
 * arrives: the prompt estimated up front, the completion from the text sent so far.
 */
export class StreamUsageEstimate {
  private readonly pieces: string[] = [];

  constructor(private readonly promptTokens: number) {}

  static forChat(messages: ChatMessage[]): StreamUsageEstimate {
    return new StreamUsageEstimate(approximateTokens(...messages.map(chatMessageText)));
  }

  static forPrompt(prompt: string): StreamUsageEstimate {
    return new StreamUsageEstimate(approximateTokens(prompt));
  }

  add(text: string | undefined): void {
    if (text) this.pieces.push(text);
  }

  usage(): TokenUsage {
    return { prompt_tokens: this.promptTokens, completion_tokens: approximateTokens(this.pieces.join('')) };
  }
}
