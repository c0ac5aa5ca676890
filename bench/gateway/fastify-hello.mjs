// The floor of a Fastify server's start: one route that answers as the gateway's liveness probe does.
// `node fastify-hello.mjs <port>` listens on 127.0.0.1:<port>.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/health/liveness', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
