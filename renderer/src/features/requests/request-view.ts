import { CONSOLE_CLIENT } from '../../lib/console-client';
import { toCsv } from '../../lib/csv';
import type { RequestLogEntry } from '../../../../gateway/src/wire/request-log-entry-schema';

export interface RequestFilter {
  keyPrefix: string;
  model: string;
  /** '' for any, a class like '4xx', or an exact status. */
  status: string;
  path: string;
  showConsole: boolean;
  /** An OpenTelemetry trace id: the requests of one trace. */
  traceId: string;
}

export const EMPTY_FILTER: RequestFilter = {
  keyPrefix: '',
  model: '',
  status: '',
  path: '',
  showConsole: false,
  traceId: '',
};

/** The list's order: newest first, or slowest first. */
export type RequestOrder = 'time' | 'latency';

/** A trace id as W3C trace context writes it: 32 hex digits (spaces around it ignored). */
export const isTraceId = (text: string) => /^[0-9a-f]{32}$/i.test(text.trim());

/**
 * The query that asks the gateway for the list when the live list cannot answer alone: the requests
 * of one trace, or the slowest of the whole log. Null while the live list does (newest first, no trace).
 */
export function requestSearch(filter: RequestFilter, order: RequestOrder): string | null {
  const trace = isTraceId(filter.traceId) ? filter.traceId.trim().toLowerCase() : '';
  if (!trace && order === 'time') return null;
  const params = new URLSearchParams({ limit: '500' });
  if (trace) params.set('trace_id', trace);
  if (order === 'latency') params.set('sort', 'latency_desc');
  if (filter.keyPrefix) params.set('key_prefix', filter.keyPrefix);
  if (filter.model) params.set('model', filter.model);
  if (filter.status) params.set('status', filter.status);
  if (filter.path.trim()) params.set('path', filter.path.trim());
  if (!filter.showConsole) params.set('exclude_console', 'true');
  return params.toString();
}

export function matchesRequestFilter(entry: RequestLogEntry, filter: RequestFilter): boolean {
  if (!filter.showConsole && entry.client === CONSOLE_CLIENT) return false;
  if (filter.keyPrefix && entry.key_prefix !== filter.keyPrefix) return false;
  if (filter.model && entry.model !== filter.model) return false;
  if (filter.path && !entry.path.toLowerCase().includes(filter.path.trim().toLowerCase())) return false;
  if (isTraceId(filter.traceId) && entry.trace_id !== filter.traceId.trim().toLowerCase()) return false;
  if (filter.status) {
    const cls = /^([1-5])xx$/.exec(filter.status);
    if (cls ? Math.floor(entry.status / 100) !== Number(cls[1]) : String(entry.status) !== filter.status) return false;
  }
  return true;
}

/** A failed request's reason in one line: its error code, then the gateway's message. */
export function failureText(entry: RequestLogEntry): string {
  return [entry.error_code, entry.error_message].filter(Boolean).join(': ');
}

const CSV_COLUMNS = [
  'id',
  'time',
  'method',
  'path',
  'status',
  'model',
  'key_prefix',
  'client',
  'latency_ms',
  'ttft_ms',
  'prompt_tokens',
  'completion_tokens',
  'cost',
  'error_code',
  'error_message',
  'trace_id',
] as const satisfies readonly (keyof RequestLogEntry)[];

/** The rows as CSV (RFC 4180, formulas defused), time as ISO 8601. */
export function requestsToCsv(entries: readonly RequestLogEntry[]): string {
  const cell = (entry: RequestLogEntry, column: (typeof CSV_COLUMNS)[number]) => {
    if (column === 'time') return new Date(entry.time).toISOString();
    const value = entry[column];
    return typeof value === 'string' || typeof value === 'number' ? value : null;
  };
  return toCsv([CSV_COLUMNS, ...entries.map((entry) => CSV_COLUMNS.map((column) => cell(entry, column)))]);
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** Linux refuses one command-line argument over 128 KiB; a body near that goes through a here-document. */
const MAX_ARGUMENT_BODY = 100_000;
const BODY_END = 'SWITCHYARD_REQUEST_BODY';

/** The logged request as a cURL command; the key is left as a variable since the log never holds it. */
export function requestToCurl(entry: RequestLogEntry, origin: string): string {
  const lines = [
    `curl -X ${entry.method} ${shellQuote(origin + entry.path)}`,
    `  -H "Authorization: Bearer $SWITCHYARD_API_KEY"`,
  ];
  const contentType = entry.request_headers?.['content-type'];
  if (entry.request_body !== undefined && entry.request_body !== '') {
    if (contentType) lines.push(`  -H ${shellQuote(`Content-Type: ${contentType}`)}`);
    if (entry.request_body.length <= MAX_ARGUMENT_BODY || entry.request_body.split('\n').includes(BODY_END)) {
      lines.push(`  -d ${shellQuote(entry.request_body)}`);
    } else {
      // Longer than one command-line argument may be: the body goes on standard input, word for word.
      return `${[...lines, `  --data-binary @- <<'${BODY_END}'`].join(' \\\n')}\n${entry.request_body}\n${BODY_END}`;
    }
  }
  return lines.join(' \\\n');
}

/** The playground that sends the same kind of request, if any. */
export function playgroundFor(path: string): string | null {
  if (path.endsWith('/chat/completions')) return '/chat';
  if (path.endsWith('/completions')) return '/completions';
  if (path.endsWith('/embeddings')) return '/embeddings';
  return null;
}

/** A body pretty-printed when it is JSON, as stored otherwise. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
