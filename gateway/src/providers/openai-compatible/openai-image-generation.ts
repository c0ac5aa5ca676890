import sharp from 'sharp';
import type { GeneratedImage, ImageGenerationProvider, ImageGenerationRequest } from '../contracts/image-generation.js';
import type { ProviderContext } from '../contracts/provider-instance.js';
import { ProviderError } from '../_shared/provider-error.js';
import type { UpstreamClient } from '../_shared/http/upstream-client.js';
import {
  expectArray,
  expectRecord,
  malformedResponse,
  optionalString,
  type JsonRecord,
} from '../_shared/http/wire-guards.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DEFAULT_MAX_IMAGE_BYTES = 32 * 1024 * 1024;

/**
 * Image generation over `POST <base>/images/generations`, asking for `b64_json`. An answer that
 * only has a `url` is fetched by the gateway's `fetchUpstreamFile` (its URL policy: the provider's
 * own origin or a public address; without the provider's key; up to `maxImageBytes`). Always
 * returns PNG bytes: JPEG or WebP answers are converted.
 */
export function createOpenAiImageGeneration(
  client: UpstreamClient,
  context: Pick<ProviderContext, 'id' | 'fetchUpstreamFile'>,
  maxImageBytes = DEFAULT_MAX_IMAGE_BYTES,
): ImageGenerationProvider {
  const fetchImage = (url: string, signal: AbortSignal): Promise<Buffer> => {
    if (!context.fetchUpstreamFile)
      throw malformedResponse(client.name, 'an image came as a url, which this provider is not set up to fetch');
    return context.fetchUpstreamFile(url, {
      trustedOrigin: client.origin,
      maxBytes: maxImageBytes,
      signal,
      providerId: context.id,
    });
  };
  return {
    async generate(request: ImageGenerationRequest): Promise<GeneratedImage[]> {
      const answer = await postWithResponseFormatFallback(client, request);
      const data = expectArray(expectRecord(answer, client.name, 'the answer').data, client.name, 'data');
      if (data.length === 0) throw malformedResponse(client.name, 'no images');
      return Promise.all(
        data.map(async (value) => {
          const item = expectRecord(value, client.name, 'an image');
          const bytes = await imageBytes(client.name, item, (url) => fetchImage(url, request.signal));
          const revised = optionalString(item.revised_prompt);
          return {
            data: await toPng(bytes, client.name),
            mimeType: 'image/png',
            ...(revised ? { revised_prompt: revised } : {}),
          };
        }),
      );
    },
  };
}

/** Some models (gpt-image-1) always answer in base64 and reject the `response_format` field. */
async function postWithResponseFormatFallback(
  client: UpstreamClient,
  request: ImageGenerationRequest,
): Promise<unknown> {
  const body: JsonRecord = {
    model: request.model,
    prompt: request.prompt,
    n: request.n,
    size: request.size,
    response_format: 'b64_json',
  };
  try {
    return await client.postJson({ path: '/images/generations', body: { json: body }, signal: request.signal });
  } catch (error) {
    if (!(error instanceof ProviderError && error.kind === 'invalid_request' && mentionsResponseFormat(error)))
      throw error;
    const { response_format: _dropped, ...rest } = body;
    return client.postJson({ path: '/images/generations', body: { json: rest }, signal: request.signal });
  }
}

function mentionsResponseFormat(error: ProviderError): boolean {
  return error.param === 'response_format' || error.message.includes('response_format');
}

async function imageBytes(
  providerName: string,
  item: JsonRecord,
  fetchImage: (url: string) => Promise<Buffer>,
): Promise<Buffer> {
  const b64 = optionalString(item.b64_json);
  if (b64) return Buffer.from(b64, 'base64');
  const url = optionalString(item.url);
  if (!url) throw malformedResponse(providerName, 'an image has neither b64_json nor url');
  const dataUrl = /^data:[^;,]*;base64,(.*)$/s.exec(url);
  if (dataUrl) return Buffer.from(dataUrl[1], 'base64');
  if (!/^https?:\/\//.test(url)) throw malformedResponse(providerName, 'an image url is not http(s)');
  return fetchImage(url);
}

async function toPng(bytes: Buffer, providerName: string): Promise<Buffer> {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return bytes;
  try {
    return await sharp(bytes).png().toBuffer();
  } catch (error) {
    throw new ProviderError('upstream', `${providerName} sent an image that could not be decoded.`, {
      code: 'upstream_malformed_response',
      cause: error,
    });
  }
}
