import { describe, expect, it } from 'vitest';
import { clientTag } from '../../src/lib/console-client';

describe('clientTag', () => {
  it("tags what a user does as playground traffic and the console's own reads as console", () => {
    expect(clientTag('POST', '/v1/chat/completions')).toBe('console-playground');
    expect(clientTag('delete', '/v1/files/file_1')).toBe('console-playground');
    expect(clientTag(undefined, '/v1/models')).toBe('console');
    expect(clientTag('GET', '/v1/files')).toBe('console');
    expect(clientTag('POST', '/settings/providers/up/test')).toBe('console');
  });
});
