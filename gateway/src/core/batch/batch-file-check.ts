import { setImmediate as nextTurn } from 'node:timers/promises';
import { GatewayError } from '../errors/gateway-error.js';
import { BATCH_ENDPOINTS, isBatchEndpoint } from '../../wire/batch-endpoints.js';

/** Bytes of a file checked between two turns of the event loop, so a large upload never stalls other requests. */
const BYTES_PER_TURN = 256 * 1024;
const NEWLINE = 0x0a;

/** What the lines of a batch input file name: the endpoint their `url`s give (if any) and the distinct `body.model`s, each with the first line naming it. */
export interface BatchFileSummary {
  url: string | undefined;
  models: Map<string, number>;
  requests: number;
}

const lineError = (line: number, why: string) =>
  new GatewayError(
    422,
    'invalid_batch_file',
    `Line ${line} of the batch file ${why}. Each line is a JSON object {"custom_id", "method": "POST", "url", "body"} (OpenAI's batch layout; Mistral's {"custom_id", "body"} too).`,
    { param: 'file' },
  );

/** `/chat/completions` and `/v1/chat/completions` name the same endpoint. */
const withVersion = (url: string) => (url.startsWith('/v1/') ? url : `/v1${url.startsWith('/') ? '' : '/'}${url}`);

/** Checks the lines of a batch input file one at a time, in order, and sums up what they name. */
class BatchLineChecker {
  private readonly customIds = new Set<string>();
  private urlLine = 0;
  readonly summary: BatchFileSummary = { url: undefined, models: new Map(), requests: 0 };

  check(text: string, line: number): void {
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw lineError(line, 'is not valid JSON');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw lineError(line, 'is not a JSON object');
    const entry = parsed as Record<string, unknown>;
    if (typeof entry.custom_id !== 'string' || entry.custom_id === '')
      throw lineError(line, "has no 'custom_id' (a non-empty string that names the request in the output)");
    if (this.customIds.has(entry.custom_id))
      throw lineError(line, `repeats the 'custom_id' "${entry.custom_id.slice(0, 64)}"`);
    this.customIds.add(entry.custom_id);
    if (entry.method !== undefined && (typeof entry.method !== 'string' || entry.method.toUpperCase() !== 'POST'))
      throw lineError(line, "has a 'method' other than POST");
    if (entry.url !== undefined) this.checkUrl(entry.url, line);
    const body = entry.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw lineError(line, "has no 'body' object (the request's JSON body)");
    const model = (body as Record<string, unknown>).model;
    if (model !== undefined && model !== null && typeof model !== 'string')
      throw lineError(line, "has a 'body.model' that is not a string");
    if (typeof model === 'string' && !this.summary.models.has(model)) this.summary.models.set(model, line);
    this.summary.requests += 1;
  }

  private checkUrl(url: unknown, line: number): void {
    if (typeof url !== 'string' || !isBatchEndpoint(withVersion(url)))
      throw lineError(line, `has a 'url' that is not one of ${BATCH_ENDPOINTS.join(', ')}`);
    const endpoint = withVersion(url);
    if (this.summary.url === undefined) {
      this.summary.url = endpoint;
      this.urlLine = line;
    } else if (endpoint !== this.summary.url) {
      throw lineError(
        line,
        `has the 'url' ${endpoint}, but line ${this.urlLine} has ${this.summary.url} (one batch runs one endpoint)`,
      );
    }
  }
}

/**
 * Checks a batch input file (an upload with purpose `batch`) line by line, from its bytes or as it
 * streams: a 422 `invalid_batch_file` names the first bad line and why. Returns what the lines name.
 */
export async function checkBatchFile(source: Uint8Array | AsyncIterable<Uint8Array>): Promise<BatchFileSummary> {
  const checker = new BatchLineChecker();
  const decoder = new TextDecoder();
  let line = 1;
  let pending: Uint8Array[] = [];
  let sinceTurn = 0;
  for await (const chunk of source instanceof Uint8Array ? slices(source) : source) {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      const text = chunk.subarray(start, newline);
      checker.check(decoder.decode(pending.length === 0 ? text : Buffer.concat([...pending, text])), line);
      pending = [];
      line += 1;
      start = newline + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
    sinceTurn += chunk.length;
    if (sinceTurn >= BYTES_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  if (pending.length > 0) checker.check(decoder.decode(Buffer.concat(pending)), line);
  if (checker.summary.requests === 0)
    throw new GatewayError(
      422,
      'invalid_batch_file',
      'The batch file holds no requests: give one JSON object per line.',
      { param: 'file' },
    );
  return checker.summary;
}

function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += BYTES_PER_TURN)
    yield bytes.subarray(start, start + BYTES_PER_TURN);
}
