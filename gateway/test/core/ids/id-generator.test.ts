import { describe, expect, it } from 'vitest';
import { IdGenerator } from '../../../src/core/ids/id-generator.js';
import { newId, newOrderedId } from '../../../src/core/ids/ids.js';

describe('the ids a request makes (IdGenerator)', () => {
  it('have the forms of newId and newOrderedId, and never repeat across refills of the pool', () => {
    const ids = new IdGenerator();
    expect(ids.id('chatcmpl-')).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(newId('chatcmpl-')).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(ids.orderedId('req_')).toHaveLength(newOrderedId('req_').length);
    expect(ids.orderedId('req_')).toMatch(/^req_[0-9a-f]{28}$/);
    // 20,000 ids of 32 digits draw 80 pools of 4 KiB.
    const seen = new Set(Array.from({ length: 20_000 }, () => ids.id('')));
    expect(seen.size).toBe(20_000);
  });

  it('ordered ids sort in the order they were made, with those of newOrderedId', () => {
    const ids = new IdGenerator();
    const made = [newOrderedId('use_')];
    for (let i = 0; i < 2_000; i++) made.push(i % 2 ? ids.orderedId('use_') : newOrderedId('use_'));
    // The same microsecond orders by the random digits; the millisecond and microsecond prefix never goes back.
    const clock = (id: string) => id.slice(4, 19);
    expect(made.map(clock)).toEqual([...made.map(clock)].sort());
  });

  it('trace ids are 32 hex digits, not all zero, and span id bases 12', () => {
    const ids = new IdGenerator();
    const traceId = ids.traceId();
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe('0'.repeat(32));
    expect(ids.hex(12)).toMatch(/^[0-9a-f]{12}$/);
  });
});
