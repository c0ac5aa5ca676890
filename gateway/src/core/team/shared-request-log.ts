import type { RedisConnection } from '../../store/redis/redis-connection.js';
import type { RequestLog, RequestLogEntry } from '../request-log/request-log.js';
import { subscribeChannel } from './subscribe-channel.js';

/** Entries logged within this many ms go out in one PUBLISH. */
const BATCH_MS = 50;
/** ... unless this many are waiting. */
const BATCH_MAX = 200;
/** One instance prunes the shared request log per this period. */
const PRUNE_PERIOD_MS = 60_000;

interface SharedRequestLogOptions {
  instanceId: string;
  /** Called when a batch could not be published (Redis away): the entries are still stored by this instance. */
  onPublishError(error: unknown, dropped: number): void;
}

/**
 * Team mode's request log: every instance publishes the summaries of the requests it logs (what the
 * live feed sends, without headers and bodies) on `<prefix>requests`, in small batches, and adds the other
 * instances' to its own list and live feed, so a console connected to any instance sees them all,
 * each stamped with its `instance_id`. Each instance still stores only its own entries; pruning the
 * shared store is taken in turns through a Redis key that lives one period (SET NX PX), so one
 * instance prunes per period instead of every instance on its own schedule.
 */
export async function shareRequestLog(
  redis: RedisConnection,
  requestLog: RequestLog,
  options: SharedRequestLogOptions,
): Promise<void> {
  const channel = `${redis.prefix}requests`;
  let waiting: RequestLogEntry[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const publish = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    const message = JSON.stringify({ from: options.instanceId, entries: batch });
    redis.commands.publish(channel, message).catch((error: unknown) => options.onPublishError(error, batch.length));
  };

  requestLog.shareEntriesWith((entry) => {
    waiting.push(summary(entry));
    if (waiting.length >= BATCH_MAX) return publish();
    timer ??= setTimeout(publish, BATCH_MS);
    timer.unref?.();
  });
  requestLog.pruneOnlyWhen(
    async () =>
      (await redis.commands.set(
        `${redis.prefix}request-log:prune`,
        options.instanceId,
        'PX',
        PRUNE_PERIOD_MS,
        'NX',
      )) === 'OK',
  );

  // This instance's own batches come back on the channel too: recognised by their first bytes, not parsed.
  const ownBatch = `{"from":${JSON.stringify(options.instanceId)},`;
  redis.subscriber.on('message', (from: string, text: string) => {
    if (from !== channel || text.startsWith(ownBatch)) return;
    let message: { from: string; entries: RequestLogEntry[] };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.from === options.instanceId || !Array.isArray(message.entries)) return;
    for (const entry of message.entries) requestLog.addFromPeer(entry);
  });
  await subscribeChannel(redis, channel, (error) => options.onPublishError(error, 0));
}

/**
 * What the list and the live feed show of another instance's request: everything but the headers and
 * bodies, which the detail view reads from the shared store (a failure's `error_code` and
 * `error_message` stay: the list tells why a request failed). The headers were most of a summary's
 * bytes, and every instance publishes a summary of every request it serves.
 */
function summary(entry: RequestLogEntry): RequestLogEntry {
  if (
    entry.request_headers === undefined &&
    entry.request_body === undefined &&
    entry.response_body === undefined &&
    entry.spans === undefined
  )
    return entry;
  const { request_headers: _headers, request_body: _request, response_body: _response, spans: _spans, ...rest } = entry;
  return rest;
}
