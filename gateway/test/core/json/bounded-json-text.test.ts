import { describe, expect, it } from 'vitest';
import { boundedJsonText } from '../../../src/core/json/bounded-json-text.js';

describe('boundedJsonText', () => {
  it('writes the same text as JSON.stringify when the value fits', () => {
    const value = {
      model: 'm',
      messages: [{ role: 'user', content: 'say "hi"\n', extra: undefined }],
      n: 1.5,
      ok: true,
      none: null,
      list: [[], {}],
    };
    expect(boundedJsonText(value, 10_000)).toBe(JSON.stringify(value));
  });

  it('stops near the bound and survives nesting JSON.stringify cannot', () => {
    let nested: unknown = 1;
    for (let i = 0; i < 500_000; i++) nested = { a: nested };
    expect(() => JSON.stringify(nested)).toThrow(RangeError);
    const text = boundedJsonText(nested, 100);
    expect(text.startsWith('{"a":{"a":')).toBe(true);
    expect(text.length).toBeLessThan(120);
  });
});
