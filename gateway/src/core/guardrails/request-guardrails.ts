import type { ChatResult } from '../../providers/contracts/chat.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { TextStreamGuard } from './text-stream-guard.js';
import type { GuardedTurn } from './turn-texts.js';

export type GuardStage = 'input' | 'output';

/** The checks one request runs (its route's and its key's), bound to its bill. */
export interface RequestGuardrails {
  /** The messages as the model may see them (redacted), or a 400 when a rule blocks them. */
  messages(messages: ChatMessage[], signal: AbortSignal): Promise<ChatMessage[]>;
  /**
   * A chat turn's messages, tools and response format as the model may see them, or a 400: the
   * messages and the tools' and schemas' descriptions are redacted where a rule says so; a match in
   * their other text (a name, an enum value, a pattern) or in a stop sequence is refused even by a
   * redact rule, since changing it would change what the answer must look like.
   */
  turn<T extends GuardedTurn>(turn: T, signal: AbortSignal): Promise<T>;
  /** A whole chat answer with its text (and tool calls' arguments) checked by the output rules. */
  answer(answer: ChatResult, signal: AbortSignal): Promise<ChatResult>;
  /**
   * Texts checked by the rules of `stage`: redacted where a rule says so, or a 400 when one blocks.
   * `fixed` texts (stop sequences) are checked too but never rewritten: a redact rule blocks them.
   */
  texts(stage: GuardStage, texts: string[], signal: AbortSignal, fixed?: string[]): Promise<string[]>;
  /** The output rules over a stream's text, choice by choice; undefined when there are none. */
  outputStream(signal: AbortSignal): TextStreamGuard | undefined;
}
