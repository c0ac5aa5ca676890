import { createRequire } from 'node:module';
import { PII_ENTITIES, type GuardrailRule, type GuardrailsConfig } from '../../wire/guardrail-schema.js';
import { findPii, type TextMatch } from './find-pii.js';

/** A pii or regex rule, ready to search a text. */
export interface TextRule {
  name: string;
  action: 'block' | 'redact' | 'flag';
  find(text: string): TextMatch[];
}

export type ModerationRule = Extract<GuardrailRule, { type: 'moderation' }>;

export interface StageRules {
  text: TextRule[];
  moderation: ModerationRule[];
}

/** A route's guardrails, compiled once when the route is added. */
export interface CompiledGuardrails {
  input: StageRules;
  output: StageRules;
}

const SURROGATE = /[\uD800-\uDFFF]/;

const require = createRequire(import.meta.url);

/** Loaded by the first regex rule: re2-wasm compiles its WebAssembly as it loads, which held every start for tens of milliseconds. */
function loadRe2(): typeof import('re2-wasm').RE2 {
  return (require('re2-wasm') as typeof import('re2-wasm')).RE2;
}

/** RE2 (with `u`) counts positions in code points; a text with characters beyond the BMP needs them in UTF-16 units. */
function utf16Positions(text: string): (codePoint: number) => number {
  if (!SURROGATE.test(text)) return (codePoint) => codePoint;
  const offsets: number[] = [];
  let offset = 0;
  for (const character of text) {
    offsets.push(offset);
    offset += character.length;
  }
  offsets.push(offset);
  return (codePoint) => offsets[codePoint] ?? offset;
}

function regexRule(rule: Extract<GuardrailRule, { type: 'regex' }>): TextRule {
  const RE2 = loadRe2();
  const patterns = rule.patterns.map((pattern) => {
    try {
      return new RE2(pattern, 'gu');
    } catch (error) {
      throw new Error(
        `Guardrail "${rule.name}": the pattern ${JSON.stringify(pattern)} is not valid RE2 syntax (${(error as Error).message}).`,
      );
    }
  });
  return {
    name: rule.name,
    action: rule.action,
    find(text) {
      const found: TextMatch[] = [];
      const position = utf16Positions(text);
      for (const pattern of patterns) {
        pattern.lastIndex = 0;
        for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
          const length = match[0]?.length ?? 0;
          if (length === 0) {
            pattern.lastIndex++;
            continue;
          }
          const start = position(match.index);
          found.push({ start, end: start + length, kind: rule.name });
        }
      }
      return found.sort((a, b) => a.start - b.start);
    },
  };
}

function stageRules(rules: GuardrailRule[] | undefined): StageRules {
  const text: TextRule[] = [];
  const moderation: ModerationRule[] = [];
  for (const rule of rules ?? []) {
    if (rule.type === 'moderation') moderation.push(rule);
    else if (rule.type === 'regex') text.push(regexRule(rule));
    else {
      const entities = rule.entities ?? PII_ENTITIES;
      text.push({ name: rule.name, action: rule.action, find: (value) => findPii(value, entities) });
    }
  }
  return { text, moderation };
}

/** A route's `guardrails:` as rules to run; a pattern RE2 cannot compile is an error naming its rule. */
export function compileGuardrails(config: GuardrailsConfig | undefined): CompiledGuardrails | undefined {
  if (!config || ((config.input?.length ?? 0) === 0 && (config.output?.length ?? 0) === 0)) return undefined;
  return { input: stageRules(config.input), output: stageRules(config.output) };
}
