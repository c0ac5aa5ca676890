import { Type, type Static } from '@sinclair/typebox';
import { ModelConfigSchema } from '../wire/model-route-schema.js';
import { ProviderTimeoutsSchema } from '../wire/provider-schema.js';
import { McpServerConfigSchema } from '../wire/mcp-server-schemas.js';

export { ModelConfigSchema, PricingSchema, type ModelConfig, type Pricing } from '../wire/model-route-schema.js';

export const ProviderConfigSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, pattern: '^[A-Za-z0-9_.-]+$' }),
    type: Type.String({ minLength: 1 }),
    base_url: Type.Optional(Type.String({ pattern: '^https?://' })),
    api_key: Type.Optional(Type.String()),
    /** Upstream model a connection test (Settings) calls when no route uses this provider. */
    test_model: Type.Optional(Type.String({ minLength: 1 })),
    timeouts: Type.Optional(ProviderTimeoutsSchema),
    /** Circuit breaker: see DEFAULT_BREAKER for the defaults. */
    breaker: Type.Optional(
      Type.Object(
        {
          failure_threshold: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
          cooldown_ms: Type.Optional(Type.Integer({ minimum: 1 })),
          max_cooldown_ms: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: true },
);
export type ProviderConfig = Static<typeof ProviderConfigSchema>;

export const ServerConfigSchema = Type.Object(
  {
    /** Largest request body, in megabytes. */
    body_limit_mb: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1024 })),
    /** Largest size a compressed request body (Content-Encoding) may inflate to, in megabytes (default 4). */
    inflated_body_limit_mb: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1024 })),
    /** A multipart upload, or another request body over 1 MB, that sends nothing for this long, in milliseconds, is answered 408 and its connection closed (default 30000). */
    body_idle_timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 3_600_000 })),
    /** Host names accepted besides the loopback names (DNS-rebinding guard). */
    allowed_hosts: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Origins allowed to call the gateway from a browser (CORS); none by default. */
    cors_origins: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Responses larger than this many bytes are gzipped when the client asks. */
    compression_threshold_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
    /** How many recent requests the console's request log keeps. */
    request_log_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
    /** Keep request and response bodies (size-capped, keys redacted) in the request log. */
    request_log_bodies: Type.Optional(Type.Boolean()),
    /** Days the request log is kept on disk across restarts. */
    request_log_retention_days: Type.Optional(Type.Number({ minimum: 0, maximum: 3650 })),
    /** Put message contents on trace spans (the GenAI conventions' opt-in gen_ai.input.messages and gen_ai.output.messages). */
    trace_content: Type.Optional(Type.Boolean()),
    /** Warm engines (OCR workers) at start; false loads them on first use instead. */
    warm_engines: Type.Optional(Type.Boolean()),
    /** How long in-flight requests may take to finish on shutdown, in milliseconds. */
    shutdown_grace_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    /** On SIGTERM, how long /health/readiness answers 503 while requests are still served, so the balancer stops sending first (default 5000 in team mode, 0 alone). */
    drain_delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
    /** Overall deadline of every request (retries, backoff and fallbacks included), until a non-streamed answer is complete or a stream has started. */
    request_deadline_ms: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Names this gateway on /status and in metrics (default: hostname-pid); GATEWAY_INSTANCE_ID overrides it. */
    instance_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** Addresses the gateway may fetch client-given URLs from although they are loopback or private: `127.0.0.1:9000`, `10.0.0.0/8`. */
    url_fetch_allow: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** How long a client may take to send the request line and headers, in milliseconds (slow-header guard). */
    headers_timeout_ms: Type.Optional(Type.Integer({ minimum: 100 })),
    /** How long a client may take to send a whole request, body included, in milliseconds; 0 turns the limit off. Responses (streams) are not limited by it. */
    request_timeout_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    /** How long an idle keep-alive connection stays open, in milliseconds. */
    keep_alive_timeout_ms: Type.Optional(Type.Integer({ minimum: 1 })),
    /** A bearer token a scraper may send to read /metrics instead of an Owner key (GATEWAY_METRICS_TOKEN overrides it); at least 16 characters. */
    metrics_token: Type.Optional(Type.String({ minLength: 16, maxLength: 512 })),
    /** Batch lines this instance runs at once, all batches together (default 8). */
    batch_concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    /** Lines of one batch this instance runs at once (default 4). */
    batch_concurrency_per_batch: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    /** PostgreSQL: how often each instance looks for batch lines of an instance that died, in seconds (default 10). */
    batch_recovery_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    /** OCR jobs (documents) each local OCR engine takes at once, all keys together; more wait their key's turn (default 4). */
    ocr_concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    /** OCR jobs of one key a local OCR engine takes at once (default 2). */
    ocr_concurrency_per_key: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    /** File uploads (POST /v1/files) one key may send at once; more are refused with 429 (default 4). */
    upload_concurrency_per_key: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    /** Threads that decode documents and images (PDF pages, image pixels) off the event loop (default: 2, or 1 on one core). */
    media_workers: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
    /** Longest one decoding job (one PDF page, one image) may run before it is stopped with 504, in milliseconds (default 60000). */
    media_job_timeout_ms: Type.Optional(Type.Integer({ minimum: 100 })),
    /** JavaScript heap of one decoding thread, in MiB; a job that needs more is stopped with 413 (default 512). */
    media_job_memory_mb: Type.Optional(Type.Integer({ minimum: 32, maximum: 16_384 })),
    /** Largest JSON schema a client may send (OCR's schema, Mistral's annotation formats, chat response_format and tool parameters), in KiB of JSON text (default 256). */
    schema_max_kb: Type.Optional(Type.Integer({ minimum: 1, maximum: 65_536 })),
    /** Deepest nesting of objects and arrays in such a schema (default 32). */
    schema_max_depth: Type.Optional(Type.Integer({ minimum: 2, maximum: 100 })),
    /** Most values (objects, arrays, strings, numbers...) in such a schema (default 10000). */
    schema_max_nodes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    /** Longest compiling an OCR or annotation schema, or checking data against it, may run on its thread before it is stopped with 422, in milliseconds (default 10000). */
    schema_job_timeout_ms: Type.Optional(Type.Integer({ minimum: 100 })),
    /** Model calls one request's MCP tool loop may make (Responses `mcp` tools, agents' MCP connectors). */
    tool_loop_max_steps: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type ServerConfig = Static<typeof ServerConfigSchema>;

export const AccountConfigSchema = Type.Object(
  {
    full_name: Type.Optional(Type.String({ minLength: 1 })),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    /** Starting balance of a new account. */
    initial_balance: Type.Optional(Type.Number({ minimum: 0 })),
    /** Completion tokens reserved for a priced request that sets no max_tokens (see the README's spend limits). */
    default_completion_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type AccountConfig = Static<typeof AccountConfigSchema>;

/** What one key may keep stored; see DEFAULT_QUOTAS for the defaults and why. */
export const QuotasConfigSchema = Type.Object(
  {
    /** Files one key may keep (uploads and generated files together). */
    files_per_key: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Megabytes of files one key may keep. */
    file_storage_mb_per_key: Type.Optional(Type.Number({ minimum: 0 })),
    agents_per_key: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Kilobytes of one agent version's configuration (name, description, instructions, tools, completion_args as JSON). */
    agent_max_kb: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    /** Kilobytes of one agent as stored, every version together. */
    agent_all_versions_max_kb: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    conversations_per_key: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Megabytes of one stored conversation's entries (JSON); a turn that would pass it is refused before it runs. */
    conversation_max_mb: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    /** Batches of one key not yet ended (validating, in progress, finalizing, cancelling); ended batches do not count, as they cannot be deleted. */
    unfinished_batches_per_key: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type QuotasConfig = Static<typeof QuotasConfigSchema>;

export const ConfigFileSchema = Type.Object(
  {
    server: Type.Optional(ServerConfigSchema),
    account: Type.Optional(AccountConfigSchema),
    quotas: Type.Optional(QuotasConfigSchema),
    providers: Type.Optional(Type.Array(ProviderConfigSchema)),
    models: Type.Optional(Type.Array(ModelConfigSchema)),
    /** MCP servers tools run on: `command` (stdio) or `url` (Streamable HTTP) each. */
    mcp_servers: Type.Optional(Type.Array(McpServerConfigSchema)),
  },
  { additionalProperties: false },
);
export type ConfigFile = Static<typeof ConfigFileSchema>;
