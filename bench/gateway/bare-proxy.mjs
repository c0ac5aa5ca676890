// The floor any Node gateway stands on: node:http in, one undici pool out, bytes piped both ways,
// no parsing, no auth, no bookkeeping. `node bare-proxy.mjs <upstream port>` prints its own port.
import { createServer } from 'node:http';
import { Pool } from 'undici';

const upstream = new Pool(`http://127.0.0.1:${process.argv[2]}`, { connections: 128, pipelining: 1 });

const server = createServer((request, response) => {
  upstream.stream(
    {
      method: request.method,
      path: request.url,
      headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
      body: request,
    },
    ({ statusCode, headers }) => {
      response.writeHead(statusCode, { 'content-type': headers['content-type'] });
      return response;
    },
    (error) => {
      if (error && !response.headersSent) {
        response.writeHead(502);
        response.end();
      }
    },
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
