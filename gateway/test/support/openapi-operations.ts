import type { JsonSchema } from './json-schema-samples.js';

/** One operation of the gateway's OpenAPI document, as the bad-input sweep needs it. */
export interface Operation {
  method: string;
  /** OpenAPI template, e.g. /v1/files/{file_id}. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  /** The JSON body schema, when the operation takes a JSON body. */
  jsonBody?: JsonSchema;
  /** Takes multipart/form-data (declared in the document, or said in its summary). */
  multipart: boolean;
  /** Needs an API key (the document's default security, unless the operation clears it). */
  secured: boolean;
  /** Answers with a never-ending server-sent event feed when the request is good. */
  eventFeed: boolean;
  label: string;
}

interface OpenApiOperation {
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** Every operation of the document, except paths matching `skip`. */
export function operationsOf(document: OpenApiDocument, skip: RegExp): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    if (skip.test(path)) continue;
    for (const [method, operation] of Object.entries(methods)) {
      const text = `${operation.summary ?? ''} ${operation.description ?? ''}`;
      const content = operation.requestBody?.content ?? {};
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name),
        query: (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'query')
          .map(({ name, schema }) => ({ name, schema })),
        jsonBody: content['application/json']?.schema,
        multipart: 'multipart/form-data' in content || /multipart/i.test(text),
        secured: operation.security === undefined || operation.security.length > 0,
        eventFeed: method === 'get' && /server-sent events/i.test(text),
        label: `${method.toUpperCase()} ${path}`,
      });
    }
  }
  return operations;
}

/** The operation's path with every parameter set to `value` (already URL-encoded). */
export function fillPath(operation: Operation, value: string): string {
  return operation.pathParams.reduce((path, name) => path.replace(`{${name}}`, value), operation.path);
}
