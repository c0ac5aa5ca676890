import type { ChatResult } from '../../providers/contracts/chat.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { ClassifierService } from '../classifiers/classifier-service.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRoute } from '../routing/model-registry.js';
import type { GatewayTracing } from '../tracing/gateway-tracing.js';
import type { CompiledGuardrails, ModerationRule, StageRules, TextRule } from './compile-guardrails.js';
import type { TextMatch } from './find-pii.js';
import type { TextVisit } from './schema-texts.js';
import { TextStreamGuard } from './text-stream-guard.js';
import { mapMessageTexts, mapTurnTexts } from './turn-texts.js';
import type { GuardStage, RequestGuardrails } from './request-guardrails.js';

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
   * `named`: the route the client named when `route` answers for it (a helper chat turn of an OCR,
   * documents or vision request): its rules run too, after the key's. `moderationRules: false` leaves
   * out the moderation rules (a moderation request is itself the judgement).
   */
  for(
    route: ModelRoute,
    meter: UsageMeter,
    { moderationRules = true, named }: { moderationRules?: boolean; named?: ModelRoute } = {},
  ): RequestGuardrails | undefined {
    const routes = named && named !== route ? combined(route.guardrails, named.guardrails) : route.guardrails;
    const all = combined(routes, meter.keyGuardrails);
    const checks = all && !moderationRules ? withoutModeration(all) : all;
    if (!checks) return undefined;
    return {
      messages: (messages, signal) =>
        this.rewritten((visit) => mapMessageTexts(messages, visit), checks, meter, signal),
      turn: (turn, signal) => this.rewritten((visit) => mapTurnTexts(turn, visit), checks, meter, signal),
      answer: (answer, signal) => this.checkAnswer(checks, answer, meter, signal),
      texts: (stage, texts, signal, fixed) => this.checkTexts(checks, stage, texts, meter, signal, fixed),
      outputStream: (signal) => this.outputStream(checks, meter, signal),
    };
  }

  /** What `walk` rebuilds, its texts as the input rules leave them: walked once to gather them, once to put them back. */
  private async rewritten<R>(
    walk: (visit: TextVisit) => R,
    checks: CompiledGuardrails,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<R> {
    const prose: string[] = [];
    const fixed: string[] = [];
    walk((text, kind) => {
      (kind === 'prose' ? prose : fixed).push(text);
      return text;
    });
    const checked = await this.checkTexts(checks, 'input', prose, meter, signal, fixed);
    let next = 0;
    return walk((text, kind) => (kind === 'prose' ? checked[next++]! : text));
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

  /** `texts` as the rules of `stage` leave them; `fixed` texts are checked too but never changed (a redact rule blocks them). */
  private async checkTexts(
    checks: CompiledGuardrails,
    stage: GuardStage,
    texts: string[],
    meter: UsageMeter,
    signal: AbortSignal,
    fixed: string[] = [],
  ): Promise<string[]> {
    const rules = checks[stage];
    if (rules.text.length === 0 && rules.moderation.length === 0) return texts;
    const checked = texts.map((text) => this.applyTextRules(rules.text, stage, text, text.length).text);
    for (const text of fixed) this.applyTextRules(rules.text, stage, text, text.length, true);
    // The fixed texts (names, enum values) are judged together: one entry, not one per word.
    const judged = fixed.length > 0 ? [...checked, fixed.join('\n')] : checked;
    await this.moderate(rules.moderation, stage, judged, meter, signal);
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
   * `fixed`: the text cannot be changed, so a redact rule that matches blocks.
   */
  private applyTextRules(rules: readonly TextRule[], stage: GuardStage, text: string, cut: number, fixed = false) {
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
      const what = rule.name === kinds[0] ? 'text its patterns deny' : kinds.join(', ');
      if (fixed && rule.action === 'redact') {
        this.record(rule.name, 'block', stage, kinds);
        throw blocked(
          rule.name,
          stage,
          `${what} where it is not redacted (a tool's or schema's name, value or pattern, or a stop sequence)`,
        );
      }
      this.record(rule.name, rule.action, stage, kinds);
      if (rule.action === 'block') throw blocked(rule.name, stage, what);
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

/** `later`'s rules after `first`'s. */
function combined(
  later: CompiledGuardrails | undefined,
  first: CompiledGuardrails | undefined,
): CompiledGuardrails | undefined {
  if (!later || !first) return later ?? first;
  const both = (a: StageRules, b: StageRules): StageRules => ({
    text: [...a.text, ...b.text],
    moderation: [...a.moderation, ...b.moderation],
  });
  return { input: both(first.input, later.input), output: both(first.output, later.output) };
}

function withoutModeration(checks: CompiledGuardrails): CompiledGuardrails {
  return {
    input: { text: checks.input.text, moderation: [] },
    output: { text: checks.output.text, moderation: [] },
  };
}

const BLOCKED = 'guardrail_blocked';

/** Whether `error` is a guardrail's refusal: the request's answer, never a failure to fall back from. */
export function isGuardrailBlock(error: unknown): boolean {
  return error instanceof GatewayError && error.code === BLOCKED;
}

function blocked(rule: string, stage: GuardStage, what: string): GatewayError {
  return new GatewayError(
    400,
    BLOCKED,
    `Blocked by the guardrail "${rule}": the ${STAGE_WORDS[stage]} contains ${what}.`,
    { param: null },
  );
}
