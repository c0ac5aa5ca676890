import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox, UnreadableSecretError } from '../../../src/core/settings/secret-box.js';

describe('SecretBox (AES-256-GCM for secrets at rest)', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals to a fresh enc:v1: value each time that opens to the plain text', () => {
    const [one, two] = [box.seal('sk-abc'), box.seal('sk-abc')];
    expect(one).toMatch(/^enc:v1:/);
    expect(one).not.toBe(two);
    expect(one).not.toContain('sk-abc');
    expect([box.open(one), box.open(two)]).toEqual(['sk-abc', 'sk-abc']);
  });

  it('returns a plain-text value (stored before encryption) as it is', () => {
    expect(box.open('sk-plain')).toBe('sk-plain');
  });

  it('refuses a value sealed under another key, altered or cut short', () => {
    const sealed = box.seal('sk-abc');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(UnreadableSecretError);
    const packed = Buffer.from(sealed.slice('enc:v1:'.length), 'base64');
    packed[packed.length - 1] ^= 1;
    expect(() => box.open(`enc:v1:${packed.toString('base64')}`)).toThrow(UnreadableSecretError);
    expect(() => box.open('enc:v1:AAAA')).toThrow(UnreadableSecretError);
  });
});
