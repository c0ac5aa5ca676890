import { expect, it } from 'vitest';
import { json } from '../../support/start-gateway.js';
import { chat, cacheConfig, SEMANTIC } from '../../support/response-cache-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

it('answers a reworded last question from the semantic cache, naming the similarity; a different one or another context misses', async () => {
  const upstream = await useFakeUpstream();
  const gateway = await useGateway({ config: cacheConfig(upstream) });
  const ask = (question: string, system = 'You answer in one word.') =>
    chat(gateway, {
      model: SEMANTIC,
      temperature: 0,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: question },
      ],
    });
  const first = await ask('What is the capital city of France?');
  expect(first.headers.get('x-switchyard-cache')).toBe('miss');
  const firstText = await first.text();

  const reworded = await ask('What is the capital of France?');
  expect(reworded.headers.get('x-switchyard-cache')).toBe('hit');
  const similarity = Number(reworded.headers.get('x-switchyard-cache-similarity'));
  expect(similarity).toBeGreaterThanOrEqual(0.9);
  expect(similarity).toBeLessThan(1);
  expect(await reworded.text()).toBe(firstText);
  const logged = await json(await gateway.request(`/console/requests/${reworded.headers.get('x-request-id')}`));
  expect(logged.cache).toMatchObject({ status: 'hit', similarity });

  expect((await ask('How do I bake sourdough bread at home?')).headers.get('x-switchyard-cache')).toBe('miss');
  // Only the last user message is compared loosely: the rest of the conversation must match exactly.
  expect((await ask('What is the capital of France?', 'You answer at length.')).headers.get('x-switchyard-cache')).toBe(
    'miss',
  );
  expect(upstream.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(3);
});

it("never answers one end user's question from another's in semantic mode, though an exact repeat may", async () => {
  const upstream = await useFakeUpstream();
  const gateway = await useGateway({ config: cacheConfig(upstream) });
  const ask = (user: string, question: string) =>
    chat(gateway, { model: SEMANTIC, temperature: 0, user, messages: [{ role: 'user', content: question }] });
  const alice = await ask('alice', 'My name is Alice Martin and my account is 4411. What is my balance?');
  expect(alice.headers.get('x-switchyard-cache')).toBe('miss');
  // Close enough to match a stored question, but from someone else: asked upstream, not answered with Alice's.
  const bob = await ask('bob', 'My name is Bob Martin and my account is 4412. What is my balance?');
  expect(bob.headers.get('x-switchyard-cache')).toBe('miss');
  expect(await bob.text()).toContain('Bob');
  // The same person rewording: a semantic hit.
  const again = await ask('alice', 'My name is Alice Martin, my account is 4411. What is my balance?');
  expect(again.headers.get('x-switchyard-cache')).toBe('hit');
  // The very same request from another user names no one else's details: an exact hit may answer it.
  const same = await ask('carol', 'My name is Alice Martin and my account is 4411. What is my balance?');
  expect(same.headers.get('x-switchyard-cache')).toBe('hit');
  expect(same.headers.get('x-switchyard-cache-similarity')).toBeNull();
});
