// A minimal OpenAI-compatible upstream for the overhead benchmark: fixed answers, no parsing beyond
// what the request needs, so that what is measured is the gateway, not the fake.
import { createServer } from 'node:http';

const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1,
  model: 'bench',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'Hello from the benchmark upstream.' }, finish_reason: 'stop' },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
});
const chunk = (content, finish) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
const usage = `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [], usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 } })}\n\n`;
// 20 content chunks, like a short answer streamed token by token.
const words =
  'Hello from the benchmark upstream, which streams twenty small chunks of text so that we can measure the gateway .'
    .split(' ')
    .map((word, i) => (i === 0 ? word : ` ${word}`));
const stream = words.map((word) => chunk(word, null)).join('') + chunk(null, 'stop') + usage + 'data: [DONE]\n\n';

// An optional first argument: milliseconds every answer waits before it is sent, as a model takes time (0: at once).
const delayMs = Number(process.argv[2] ?? 0);

const server = createServer((request, response) => {
  const parts = [];
  request.on('data', (part) => parts.push(part));
  request.on('end', () => {
    const streamed = Buffer.concat(parts).includes('"stream":true');
    const answer = () => {
      if (streamed) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(stream);
      } else {
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(completion),
        });
        response.end(completion);
      }
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
