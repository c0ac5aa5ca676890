import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** gzip above a size threshold when asked; never for event streams, which must flush chunk by chunk. */
export async function registerCompression(app: FastifyInstance, thresholdBytes: number): Promise<void> {
  await app.register(compress, {
    global: true,
    // Request bodies are inflated by request-body.ts, which caps what they inflate to.
    globalDecompression: false,
    threshold: thresholdBytes,
    encodings: ['gzip'],
    customTypes:
      /^(application\/(json|javascript|x-ndjson|jsonl)|text\/(html|plain|css|javascript|markdown|csv|vtt)|image\/svg\+xml)/,
  });
}
