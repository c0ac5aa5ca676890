import type { ChatResult } from '../../providers/contracts/chat.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { ClassifierService } from '../classifiers/classifier-service.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRoute } from '../routing/model-registry.js';
import type { GatewayTracing } from '../tracing/gateway-tracing.js';
import type { CompiledGuardrails, ModerationRule, StageRules, TextRule } from './compile-guardrails.js';
import type { TextMatch } from './find-pii.js';
import { TextStreamGuard } from './text-stream-guard.js';

export type GuardStage = 'input' | 'output';

/** The checks one request runs (its route's and its key's), bound to its bill. */
export interface RequestGuardrails {
  /** The messages as the model may see them (redacted), or a 400 when a rule blocks them. */
  messages(messages: ChatMessage[], signal: AbortSignal): Promise<ChatMessage[]>;
  /** A whole chat answer with its text (and tool calls' arguments) checked by the output rules. */
  answer(answer: ChatResult, signal: AbortSignal): Promise<ChatResult>;
  /** Texts checked by the rules of `stage`: redacted where a rule says so, or a 400 when one blocks. */
  texts(stage: GuardStage, texts: string[], signal: AbortSignal): Promise<string[]>;
  /** The output rules over a stream's text, choice by choice; undefined when there are none. */
  outputStream(signal: AbortSignal): TextStreamGuard | undefined;
}

const STAGE_WORDS: Record<GuardStage, string> = { input: 'request', output: 'answer' };

function replaceMatches(text: string, matches: readonly TextMatch[]): string {
  let result = '';
  let from = 0;
  for (const match of matches) {
    if (match.start < from) continue;
    result += `${text.slice(from, match.start)}[REDACTED:${match.kind}]`;
    from = match.end;
  }
  return result + text.slice(from);
}

/**
 * A route's and a key's guardrails run on what is sent to the model and on what it answers: pii and regex
 * rules block (400 naming the rule), redact or flag; moderation rules ask a moderation route and
 * block or flag. Every match is recorded on the request's trace (an event on the span running,
 * and the request log entry's `guardrail_flags`). Every path that reaches a model calls it:
 * the chat service (chat, Responses, conversations, agents, batches' lines), completions, FIM, embeddings,
 * image generation, transcription prompts, and the request's own moderations and classifications.
 */
export class GuardrailService {
  constructor(
    private readonly classifiers: ClassifierService,
    private readonly tracing?: GatewayTracing,
  ) {}

  /**
   * The route's guardrails and those of the request's key (first), together; undefined when there are none.
   * `moderationRules: false` leaves out the moderation rules (a moderation request is itself the judgement).
   */
  for(
    route: ModelRoute,
    meter: UsageMeter,
    { moderationRules = true }: { moderationRules?: boolean } = {},
  ): RequestGuardrails | undefined {
    const all = combined(route.guardrails, meter.keyGuardrails);
    const checks = all && !moderationRules ? withoutModeration(all) : all;
    if (!checks) return undefined;
    return {
      messages: (messages, signal) => this.checkMessages(checks, messages, meter, signal),
      answer: (answer, signal) => this.checkAnswer(checks, answer, meter, signal),
      texts: (stage, texts, signal) => this.checkTexts(checks, stage, texts, meter, signal),
      outputStream: (signal) => this.outputStream(checks, meter, signal),
    };
  }

  private async checkMessages(
    checks: CompiledGuardrails,
    messages: ChatMessage[],
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<ChatMessage[]> {
    const texts: string[] = [];
    for (const message of messages) {
      if (typeof message.content === 'string') texts.push(message.content);
      else for (const part of message.content ?? []) if (part.type === 'text') texts.push(part.text);
      for (const call of message.tool_calls ?? []) texts.push(call.function.arguments);
    }
    const checked = await this.checkTexts(checks, 'input', texts, meter, signal);
    let next = 0;
    const take = () => checked[next++];
    return messages.map((message) => {
      const content =
        typeof message.content === 'string'
          ? take()
          : (message.content?.map((part) => (part.type === 'text' ? { ...part, text: take() } : part)) ?? null);
      const toolCalls = message.tool_calls?.map((call) => ({
        ...call,
        function: { ...call.function, arguments: take() },
      }));
      return { ...message, content, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
    });
  }

  private async checkAnswer(
    checks: CompiledGuardrails,
    answer: ChatResult,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<ChatResult> {
    if (checks.output.text.length === 0 && checks.output.moderation.length === 0) return answer;
    const texts = answer.choices.flatMap((choice) => [
      choice.message.content ?? '',
      ...(choice.message.tool_calls ?? []).map((call) => call.function.arguments),
    ]);
    const checked = await this.checkTexts(checks, 'output', texts, meter, signal);
    let next = 0;
    const take = () => checked[next++];
    const choices = answer.choices.map((choice) => {
      const content = take();
      const toolCalls = choice.message.tool_calls?.map((call) => ({
        ...call,
        function: { ...call.function, arguments: take() },
      }));
      return {
        ...choice,
        message: {
          ...choice.message,
          content: choice.message.content === null ? null : content,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
      };
    });
    return { ...answer, choices };
  }

  private async checkTexts(
    checks: CompiledGuardrails,
    stage: GuardStage,
    texts: string[],
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<string[]> {
    const rules = checks[stage];
    if (rules.text.length === 0 && rules.moderation.length === 0) return texts;
    const checked = texts.map((text) => this.applyTextRules(rules.text, stage, text, text.length).text);
    await this.moderate(rules.moderation, stage, checked, meter, signal);
    return checked;
  }

  private outputStream(
    checks: CompiledGuardrails,
    meter: UsageMeter,
    signal: AbortSignal,
  ): TextStreamGuard | undefined {
    const rules = checks.output;
    if (rules.text.length === 0 && rules.moderation.length === 0) return undefined;
    return new TextStreamGuard(
      (text, cut) => this.applyTextRules(rules.text, 'output', text, cut),
      rules.moderation.length > 0
        ? (text) => this.moderate(rules.moderation, 'output', [text], meter, signal)
        : undefined,
    );
  }

  /**
   * The text rules over `text`, of which the part before `cut` is released: matches there are
   * redacted; `cut` moves back before a match it would split. A block throws; a flag is recorded.
   */
  private applyTextRules(rules: readonly TextRule[], stage: GuardStage, text: string, cut: number) {
    const found = rules.map((rule) => ({ rule, matches: rule.find(text) }));
    // Back before every match the cut would split, whichever rule found it (moving back may split another).
    let end = cut;
    for (let moved = true; moved;) {
      moved = false;
      for (const { matches } of found)
        for (const match of matches)
          if (match.start < end && match.end > end) {
            end = match.start;
            moved = true;
          }
    }
    const redacted: TextMatch[] = [];
    for (const { rule, matches } of found) {
      const released = matches.filter((match) => match.end <= end);
      if (released.length === 0) continue;
      const kinds = [...new Set(released.map((match) => match.kind))];
      this.record(rule.name, rule.action, stage, kinds);
      if (rule.action === 'block')
        throw blocked(rule.name, stage, rule.name === kinds[0] ? 'text its patterns deny' : kinds.join(', '));
      if (rule.action === 'redact') redacted.push(...released);
    }
    redacted.sort((a, b) => a.start - b.start || b.end - a.end);
    return { text: replaceMatches(text.slice(0, end), redacted), rest: text.slice(end) };
  }

  private async moderate(
    rules: readonly ModerationRule[],
    stage: GuardStage,
    texts: string[],
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<void> {
    const judged = texts.filter((text) => text.trim().length > 0);
    if (judged.length === 0) return;
    for (const rule of rules) {
      const { result } = await this.classifiers.check(rule.model, judged, meter, signal);
      const hits = new Set<string>();
      for (const verdict of result.results) {
        for (const [category, flagged] of Object.entries(verdict.categories)) {
          if (rule.categories && !rule.categories.includes(category)) continue;
          const score = verdict.category_scores[category] ?? 0;
          if (rule.threshold !== undefined ? score >= rule.threshold : flagged) hits.add(category);
        }
      }
      if (hits.size === 0) continue;
      this.record(rule.name, rule.action, stage, [...hits]);
      if (rule.action === 'block') throw blocked(rule.name, stage, `content flagged as ${[...hits].join(', ')}`);
    }
  }

  private record(rule: string, action: string, stage: GuardStage, found: string[]): void {
    const span = this.tracing?.active();
    if (!span) return;
    span.event('guardrail', {
      'switchyard.guardrail.rule': rule,
      'switchyard.guardrail.action': action,
      'switchyard.guardrail.stage': stage,
      'switchyard.guardrail.found': found,
    });
    span.trace.noteGuardrail(`${stage}:${rule}:${action}`);
  }
}

function combined(
  route: CompiledGuardrails | undefined,
  key: CompiledGuardrails | undefined,
): CompiledGuardrails | undefined {
  if (!route || !key) return route ?? key;
  const both = (a: StageRules, b: StageRules): StageRules => ({
    text: [...a.text, ...b.text],
    moderation: [...a.moderation, ...b.moderation],
  });
  return { input: both(key.input, route.input), output: both(key.output, route.output) };
}

function withoutModeration(checks: CompiledGuardrails): CompiledGuardrails {
  return {
    input: { text: checks.input.text, moderation: [] },
    output: { text: checks.output.text, moderation: [] },
  };
}

function blocked(rule: string, stage: GuardStage, what: string): GatewayError {
  return new GatewayError(
    400,
    'guardrail_blocked',
    `Blocked by the guardrail "${rule}": the ${STAGE_WORDS[stage]} contains ${what}.`,
    { param: null },
  );
}
