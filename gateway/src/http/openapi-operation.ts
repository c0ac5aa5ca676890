/**
 * What every operation in /openapi.json carries even when its route does not say: an operationId
 * (from the method and path), a summary, and a described multipart body. Used as @fastify/swagger's
 * `transform`, so it shapes the document only, never validation.
 */

type RouteSchema = Record<string, unknown> & {
  hide?: boolean;
  operationId?: string;
  summary?: string;
  consumes?: string[];
  body?: unknown;
};

/** Multipart fields besides `file`, per path; a route with multipart and no entry documents `file` alone. */
const TRANSCRIPT_FIELDS = {
  model: { type: 'string' },
  language: { type: 'string' },
  prompt: { type: 'string' },
  response_format: { type: 'string', description: 'json | text | verbose_json | srt | vtt' },
  temperature: { type: 'string', description: 'a number from 0 to 1' },
};
const MULTIPART_FIELDS: Readonly<Record<string, Record<string, { type: string; description?: string }>>> = {
  '/v1/files': { purpose: { type: 'string', description: 'batch, batch_output, fine-tune, ocr, user_data, ...' } },
  '/transcript': TRANSCRIPT_FIELDS,
  '/v1/audio/transcriptions': TRANSCRIPT_FIELDS,
};

/** Aliases the document lists although their route hides them (a second path for the same operation). */
const LISTED_ALIASES = new Set(['/chat/completions']);

const words = (text: string): string[] => text.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');

/** `POST /v1/chat/completions` → `postV1ChatCompletions`; `GET /v1/files/:file_id` → `getV1FilesByFileId`. */
export function operationIdFor(method: string, url: string): string {
  const parts = url
    .split('/')
    .filter((part) => part !== '')
    .flatMap((part) => (part.startsWith(':') ? ['by', ...words(part.slice(1))] : words(part)));
  return [method.toLowerCase(), ...parts.map((part) => part[0].toUpperCase() + part.slice(1))].join('');
}

function summaryFor(method: string, url: string): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const verb = { GET: 'Read', POST: 'Create', PUT: 'Replace', PATCH: 'Update', DELETE: 'Delete' }[method] ?? method;
  return `${verb} ${path}`;
}

function multipartBody(url: string) {
  const fields = MULTIPART_FIELDS[url] ?? {};
  return { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' }, ...fields } };
}

export function describeOperation({
  schema,
  url,
  route,
}: {
  schema?: unknown;
  url: string;
  route: { method: string | string[] };
}): { schema: RouteSchema; url: string } {
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  const given = (schema ?? {}) as RouteSchema;
  const alias = LISTED_ALIASES.has(url);
  const described: RouteSchema = {
    ...given,
    ...(alias ? { hide: false } : {}),
    operationId: alias || !given.operationId ? operationIdFor(method, url) : given.operationId,
    summary: given.summary ?? summaryFor(method, url),
  };
  if (given.consumes?.includes('multipart/form-data') && given.body === undefined) described.body = multipartBody(url);
  return { schema: described, url };
}
