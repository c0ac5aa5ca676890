import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/**
 * The part of OTLP/HTTP's trace request (opentelemetry-proto, collector/trace/v1) a test reads, written
 * as protobufjs's JSON descriptor: the messages and field numbers of the wire format.
 */
const OTLP_TRACES = protobuf.Root.fromJSON({
  nested: {
    otlp: {
      nested: {
        ExportTraceServiceRequest: { fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } } },
        ResourceSpans: {
          fields: {
            resource: { type: 'Resource', id: 1 },
            scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
          },
        },
        Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
        ScopeSpans: {
          fields: { scope: { type: 'InstrumentationScope', id: 1 }, spans: { rule: 'repeated', type: 'Span', id: 2 } },
        },
        InstrumentationScope: { fields: { name: { type: 'string', id: 1 }, version: { type: 'string', id: 2 } } },
        Span: {
          fields: {
            traceId: { type: 'bytes', id: 1 },
            spanId: { type: 'bytes', id: 2 },
            traceState: { type: 'string', id: 3 },
            parentSpanId: { type: 'bytes', id: 4 },
            name: { type: 'string', id: 5 },
            kind: { type: 'int32', id: 6 },
            startTimeUnixNano: { type: 'fixed64', id: 7 },
            endTimeUnixNano: { type: 'fixed64', id: 8 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
            events: { rule: 'repeated', type: 'Event', id: 11 },
            status: { type: 'Status', id: 15 },
            flags: { type: 'fixed32', id: 16 },
          },
        },
        Event: {
          fields: {
            timeUnixNano: { type: 'fixed64', id: 1 },
            name: { type: 'string', id: 2 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
          },
        },
        Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
        KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
        AnyValue: {
          oneofs: {
            value: {
              oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'],
            },
          },
          fields: {
            stringValue: { type: 'string', id: 1 },
            boolValue: { type: 'bool', id: 2 },
            intValue: { type: 'int64', id: 3 },
            doubleValue: { type: 'double', id: 4 },
            arrayValue: { type: 'ArrayValue', id: 5 },
            kvlistValue: { type: 'KeyValueList', id: 6 },
            bytesValue: { type: 'bytes', id: 7 },
          },
        },
        ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
        KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
      },
    },
  },
}).lookupType('otlp.ExportTraceServiceRequest');

type Primitive = string | number | boolean;
export type ReceivedValue = Primitive | Primitive[] | undefined;

/** One span as the receiver got it, in either encoding. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  traceState: string | undefined;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startNanos: bigint;
  endNanos: bigint;
  attributes: Record<string, ReceivedValue>;
  events: { name: string; attributes: Record<string, ReceivedValue> }[];
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string | undefined;
  resource: Record<string, ReceivedValue>;
  encoding: 'protobuf' | 'json';
}

/** How the receiver answers: normally, never, or with an error status. */
export type ReceiverMode = 'accept' | 'hang' | { status: number };

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** The content types of the export requests received. */
  contentTypes: string[];
  setMode(mode: ReceiverMode): void;
  /** Resolves once `count` spans matching `where` have arrived (or rejects after `timeoutMs`). */
  waitFor(where: (span: ReceivedSpan) => boolean, count?: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface AnyValueJson {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number | { toString(): string };
  doubleValue?: number;
  arrayValue?: { values?: AnyValueJson[] };
}
interface KeyValueJson {
  key: string;
  value?: AnyValueJson;
}

function valueOf(value: AnyValueJson | undefined): ReceivedValue {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue.toString());
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map((item) => valueOf(item) as Primitive);
  return undefined;
}

function attributesOf(list: KeyValueJson[] | undefined): Record<string, ReceivedValue> {
  return Object.fromEntries((list ?? []).map((pair) => [pair.key, valueOf(pair.value)]));
}

/** Ids as lower-case hex: protobuf sends bytes, OTLP/JSON hex strings. */
function hexOf(id: Uint8Array | string | undefined): string | undefined {
  if (id === undefined || id.length === 0) return undefined;
  return typeof id === 'string' ? id.toLowerCase() : Buffer.from(id).toString('hex');
}

interface RequestJson {
  resourceSpans?: {
    resource?: { attributes?: KeyValueJson[] };
    scopeSpans?: {
      spans?: {
        traceId: Uint8Array | string;
        spanId: Uint8Array | string;
        parentSpanId?: Uint8Array | string;
        traceState?: string;
        name: string;
        kind?: number;
        startTimeUnixNano: { toString(): string };
        endTimeUnixNano: { toString(): string };
        attributes?: KeyValueJson[];
        events?: { name: string; attributes?: KeyValueJson[] }[];
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
}

function spansOf(request: RequestJson, encoding: ReceivedSpan['encoding']): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? [])
      for (const span of scopeSpans.spans ?? [])
        out.push({
          traceId: hexOf(span.traceId)!,
          spanId: hexOf(span.spanId)!,
          parentSpanId: hexOf(span.parentSpanId),
          traceState: span.traceState || undefined,
          name: span.name,
          kind: span.kind ?? 0,
          startNanos: BigInt(span.startTimeUnixNano.toString()),
          endNanos: BigInt(span.endTimeUnixNano.toString()),
          attributes: attributesOf(span.attributes),
          events: (span.events ?? []).map((event) => ({
            name: event.name,
            attributes: attributesOf(event.attributes),
          })),
          statusCode: span.status?.code ?? 0,
          statusMessage: span.status?.message || undefined,
          resource,
          encoding,
        });
  }
  return out;
}

function decode(request: IncomingMessage, body: Buffer): { spans: ReceivedSpan[]; contentType: string } {
  const contentType = (request.headers['content-type'] ?? '').split(';')[0];
  if (contentType === 'application/json')
    return { spans: spansOf(JSON.parse(body.toString()) as RequestJson, 'json'), contentType };
  const message = OTLP_TRACES.decode(body);
  const plain = OTLP_TRACES.toObject(message, { longs: String, bytes: Array, defaults: false }) as RequestJson;
  // toObject's bytes come as arrays of numbers.
  for (const resourceSpans of plain.resourceSpans ?? [])
    for (const scopeSpans of resourceSpans.scopeSpans ?? [])
      for (const span of scopeSpans.spans ?? []) {
        span.traceId = Uint8Array.from(span.traceId as unknown as number[]);
        span.spanId = Uint8Array.from(span.spanId as unknown as number[]);
        if (span.parentSpanId) span.parentSpanId = Uint8Array.from(span.parentSpanId as unknown as number[]);
      }
  return { spans: spansOf(plain, 'protobuf'), contentType };
}

/** An OTLP/HTTP trace receiver on a real socket: decodes protobuf and JSON export requests. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  let mode: ReceiverMode = 'accept';
  const waiters = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (mode === 'hang') {
        hanging.add(response);
        return;
      }
      if (typeof mode === 'object') {
        response.writeHead(mode.status, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const decoded = decode(request, Buffer.concat(chunks));
      contentTypes.push(decoded.contentType);
      spans.push(...decoded.spans);
      for (const wake of waiters) wake();
      response
        .writeHead(200, { 'content-type': decoded.contentType })
        .end(decoded.contentType === 'application/json' ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    setMode(next) {
      mode = next;
    },
    waitFor(where, count = 1, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = spans.filter(where);
          if (found.length < count) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(`the receiver got ${spans.filter(where).length} of ${count} spans (${spans.length} in all)`),
          );
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
