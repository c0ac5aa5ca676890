import { readSseEvents } from '../../streaming/sse-reader.js';
import { ProviderError } from '../_shared/provider-error.js';
import type { UpstreamClient } from '../_shared/http/upstream-client.js';
import { expectRecord, isRecord } from '../_shared/http/wire-guards.js';
import type { ResponsesProvider, ResponsesUpstreamEvent } from '../contracts/responses.js';

/** The Responses API passed through to `POST <base>/responses`, plain and streamed. */
export function createOpenAiResponses(client: UpstreamClient): ResponsesProvider {
  return {
    async create(body, signal) {
      const answer = await client.postJson({ path: '/responses', body: { json: { ...body, stream: false } }, signal });
      return expectRecord(answer, client.name, 'the response');
    },
    async createStream(body, signal) {
      const stream = await client.postStream({ path: '/responses', body: { json: { ...body, stream: true } }, signal });
      return readEvents(stream, client.name);
    },
  };
}

async function* readEvents(
  stream: AsyncIterable<Uint8Array>,
  providerName: string,
): AsyncGenerator<ResponsesUpstreamEvent> {
  let finished = false;
  for await (const sse of readSseEvents(stream)) {
    if (sse.data === '[DONE]') break;
    let data: unknown;
    try {
      data = JSON.parse(sse.data);
    } catch (error) {
      throw new ProviderError('upstream', `${providerName} sent a Responses stream event that is not JSON.`, {
        cause: error,
      });
    }
    if (!isRecord(data) || typeof data.type !== 'string')
      throw new ProviderError('upstream', `${providerName} sent a Responses stream event without a type.`);
    if (data.type === 'error' || data.type === 'response.failed') {
      const detail = isRecord(data.response) && isRecord(data.response.error) ? data.response.error : data;
      throw new ProviderError(
        'upstream',
        `${providerName} failed mid-stream: ${typeof detail.message === 'string' ? detail.message : 'unknown error'}`,
      );
    }
    yield data as ResponsesUpstreamEvent;
    if (data.type === 'response.completed' || data.type === 'response.incomplete') finished = true;
  }
  if (!finished)
    throw new ProviderError('upstream', `${providerName} ended the Responses stream before response.completed.`);
}
