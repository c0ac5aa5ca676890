import type { FastifyError, FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors/gateway-error.js';
import { isDatabaseUnavailable } from '../store/store-error.js';
import { pendingAdmission } from './authentication.js';
import { megabytes } from '../core/errors/megabytes.js';
import type { OutageWarnings } from '../core/errors/outage-warnings.js';

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

function fieldOf(issue: ValidationIssue, context: string | undefined): string {
  const path = issue.instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  const missing = issue.keyword === 'required' ? String(issue.params.missingProperty ?? '') : '';
  const extra = issue.keyword === 'additionalProperties' ? String(issue.params.additionalProperty ?? '') : '';
  const leaf = missing || extra;
  const full = [path, leaf].filter(Boolean).join(path && leaf ? '.' : '');
  return full || (context === 'body' ? 'body' : (context ?? 'body'));
}

function describe(issue: ValidationIssue, field: string): string {
  if (field === 'body' && issue.keyword === 'type')
    return `the body must be a JSON ${String(issue.params.type ?? 'object')} (send one with Content-Type: application/json)`;
  switch (issue.keyword) {
    case 'required':
      return `'${field}' is required`;
    case 'additionalProperties':
      return `'${field}' is not a known field`;
    case 'enum':
      return `'${field}' must be one of ${JSON.stringify(issue.params.allowedValues)}`;
    default:
      return `'${field}' ${issue.message ?? 'is invalid'}`;
  }
}

/** A client's own socket failing as it leaves: ECONNRESET here is the client's, not the database's. */
const CLIENT_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Fastify's own errors and a database out of reach, mapped to the gateway's codes; `bodyLimitBytes` is
 * the route's; `clientLeft` says the client closed the connection before its request had arrived.
 */
function fromFastifyError(error: FastifyError, bodyLimitBytes: number, clientLeft: boolean): GatewayError | undefined {
  if (clientLeft && CLIENT_SOCKET_CODES.has(error.code)) {
    return new GatewayError(400, 'client_closed_request', 'The connection closed before the request was complete.');
  }
  if (isDatabaseUnavailable(error)) {
    return new GatewayError(
      503,
      'database_unavailable',
      "The gateway's database does not answer; try again shortly (usage already recorded is kept and written when it is back).",
      { retryAfter: 5 },
    );
  }
  if (error.validation) {
    const issue = error.validation[0] as ValidationIssue;
    const field = fieldOf(issue, error.validationContext);
    return new GatewayError(422, 'invalid_value', `Invalid request: ${describe(issue, field)}.`, { param: field });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new GatewayError(400, 'invalid_json', `The body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new GatewayError(
        415,
        'unsupported_media_type',
        `${error.message}. Send Content-Type: application/json (or multipart/form-data where the endpoint accepts uploads).`,
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return new GatewayError(
        413,
        'body_too_large',
        `The request body is larger than the ${megabytes(bodyLimitBytes)} the gateway accepts (server.body_limit_mb in the config file).`,
      );
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new GatewayError(
        415,
        'unsupported_media_type',
        'Expected a multipart/form-data body; let your HTTP client set the Content-Type with its boundary.',
      );
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new GatewayError(413, 'too_many_parts', error.message);
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return new GatewayError(error.statusCode, error.code?.toLowerCase() ?? 'invalid_request', error.message);
      }
      return undefined;
  }
}

/** The one error path: everything leaves as {object:"error", message, type, param, code}. */
export function registerErrorHandler(app: FastifyInstance, outages?: Pick<OutageWarnings, 'refusedRequest'>): void {
  app.setErrorHandler(async (raised: FastifyError | GatewayError, request, reply) => {
    // A rate verdict not waited for before the body was read (authentication.ts) answers first, as if it had been.
    const error =
      (await pendingAdmission(request)?.then(
        () => raised,
        (refusal: unknown) => refusal as FastifyError | GatewayError,
      )) ?? raised;
    const mapped =
      error instanceof GatewayError
        ? error
        : fromFastifyError(
            error as FastifyError,
            request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0,
            request.raw.destroyed && !request.raw.complete,
          );
    if (!mapped) {
      request.log.error({ err: error }, 'unhandled error');
      const internal = new GatewayError(
        500,
        'internal_error',
        `The gateway failed to handle this request (request id ${request.id}); details are in its log.`,
      );
      return reply.status(500).send(internal.toBody());
    }
    // A database or Redis outage is logged once and then in periodic reminders with a count, not once per refused request.
    if (mapped.status >= 500 && !outages?.refusedRequest(mapped.code))
      request.log.warn({ code: mapped.code, msg: mapped.message }, 'request failed');
    if (mapped.retryAfter !== undefined) reply.header('Retry-After', String(Math.max(1, Math.ceil(mapped.retryAfter))));
    // A cached route's failure says what its cache did too (a miss that then failed), as every answer of it does.
    const cache = request.madeBill?.cache;
    if (cache) reply.header('X-Switchyard-Cache', cache.status);
    return reply.status(mapped.status).send(mapped.toBody());
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new GatewayError(
      404,
      'route_not_found',
      `No route ${request.method} ${request.url.split('?')[0]}. The API is described at /openapi.json and /docs.`,
    );
    return reply.status(404).send(error.toBody());
  });
}
