// The floor of a Fastify gateway: the request's JSON parsed and serialised again for the upstream, the
// answer's JSON parsed and sent as a new object (a stream piped through as it comes), one undici pool
// out; no auth, no bookkeeping. Beside the bare proxy it shows what the framework and the JSON work
// cost, so that what the gateway adds beyond them is its own features.
// `node fastify-proxy.mjs <upstream port>` prints its own port.
import Fastify from 'fastify';
import { Pool } from 'undici';

const upstream = new Pool(`http://127.0.0.1:${process.argv[2]}`, { connections: 128, pipelining: 1 });
const app = Fastify({ logger: false, keepAliveTimeout: 60_000 });

app.post('/v1/chat/completions', async (request, reply) => {
  const answer = await upstream.request({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request.body),
  });
  reply.code(answer.statusCode).header('content-type', answer.headers['content-type']);
  if (request.body.stream === true) return reply.send(answer.body);
  const completion = await answer.body.json();
  return {
    id: completion.id,
    object: completion.object,
    created: completion.created,
    model: completion.model,
    choices: completion.choices,
    usage: completion.usage,
  };
});

await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${app.server.address().port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
