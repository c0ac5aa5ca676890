import { describe, expect, it } from 'vitest';
import { compileGuardrails } from '../../../src/core/guardrails/compile-guardrails.js';
import { findPii, passesIbanCheck, passesLuhn } from '../../../src/core/guardrails/find-pii.js';
import { TextStreamGuard } from '../../../src/core/guardrails/text-stream-guard.js';

const ALL = ['email', 'phone', 'card', 'iban', 'secret'] as const;
const kinds = (text: string) => findPii(text, ALL).map((match) => [match.kind, text.slice(match.start, match.end)]);

describe('PII and secret detection', () => {
  it('checks card numbers with Luhn and IBANs with mod 97', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesIbanCheck('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(passesIbanCheck('GB82 WEST 1234 5698 7654 33')).toBe(false);
    expect(kinds('pay 5500-0000-0000-0004 or GB82WEST12345698765432')).toEqual([
      ['card', '5500-0000-0000-0004'],
      ['iban', 'GB82WEST12345698765432'],
    ]);
    // A card number that fails Luhn is not a phone number either: too many digits.
    expect(kinds('order 4111 1111 1111 1112')).toEqual([]);
  });

  it('finds secrets of the common formats, e-mails and phone numbers, and leaves dates, versions and short numbers', () => {
    const github = `ghp_${'a1B2'.repeat(9)}`;
    expect(kinds(`keys: AKIAIOSFODNN7EXAMPLE ${github} sk-ant-api03-${'x'.repeat(30)}`).map(([kind]) => kind)).toEqual([
      'secret',
      'secret',
      'secret',
    ]);
    expect(kinds('-----BEGIN RSA PRIVATE KEY-----')).toEqual([['secret', '-----BEGIN RSA PRIVATE KEY-----']]);
    expect(kinds('write to a.b+c@mail.example.org, or +1 (415) 555-2671, or 020 7946 0958')).toEqual([
      ['email', 'a.b+c@mail.example.org'],
      ['phone', '+1 (415) 555-2671'],
      ['phone', '020 7946 0958'],
    ]);
    expect(kinds('on 2024-05-01 version 1.2.3 costs 1 500 euros, order 12345')).toEqual([]);
  });

  it('regex rules run on RE2 and report positions in the text as JavaScript counts them', () => {
    const rules = compileGuardrails({
      input: [{ name: 'deny', type: 'regex', patterns: ['(?i)secret plan'], action: 'redact' }],
    });
    const text = 'éèà 😀 the SECRET plan';
    const [match] = rules?.input.text[0].find(text) ?? [];
    expect(text.slice(match.start, match.end)).toBe('SECRET plan');
    expect(() =>
      compileGuardrails({ input: [{ name: 'bad', type: 'regex', patterns: ['(a)\\1'], action: 'block' }] }),
    ).toThrow(/Guardrail "bad".*RE2/);
  });
});

describe('TextStreamGuard', () => {
  const redactDigits = (text: string, cut: number) => {
    let end = cut;
    for (const match of text.matchAll(/\d{4}(?: \d{4}){3}/g))
      if (match.index < end && match.index + match[0].length > end) end = match.index;
    return { text: text.slice(0, end).replace(/\d{4}(?: \d{4}){3}/g, '[CARD]'), rest: text.slice(end) };
  };

  it('holds back the newest text so a match split across chunks is redacted whole, and releases the rest at the end', async () => {
    const guard = new TextStreamGuard(redactDigits);
    const chunks = ['x'.repeat(300), ' card 4111 11', '11 1111 1111', ' thanks ', 'y'.repeat(300)];
    let out = '';
    for (const chunk of chunks) out += await guard.push(0, chunk);
    out += await guard.end(0);
    expect(out).toBe(`${'x'.repeat(300)} card [CARD] thanks ${'y'.repeat(300)}`);
  });
});
