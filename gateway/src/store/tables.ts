import type { Generated, Selectable } from 'kysely';

/**
 * Every table as the database holds it: the one source of the store's row types, on SQLite and
 * PostgreSQL alike. JSON columns are text; flags are 0/1 integers; times are milliseconds.
 */
export interface Tables {
  schema_migrations: { version: number; name: string; applied_at: number };
  api_keys: {
    id: string;
    name: string;
    role: 'owner' | 'member';
    prefix: string;
    hash: string;
    created_at: number;
    last_used_at: number | null;
    revoked_at: number | null;
    spend_limit: number | null;
    rpm_limit: number | null;
    /** JSON: the key's guardrails (wire/guardrail-schema.ts), or null. */
    guardrails: string | null;
  };
  account: {
    id: number;
    full_name: string;
    currency: string;
    balance: number;
    spend_limit: number | null;
    created_at: number;
  };
  usage: {
    id: Generated<number>;
    time: number;
    request_id: string;
    key_id: string | null;
    method: string;
    route: string;
    model: string | null;
    status: number;
    latency_ms: number;
    prompt_tokens: number;
    completion_tokens: number;
    cost: number;
    /** The ledger's id of the entry (migration 16; NULL on older rows): replays and retries skip rows already stored. */
    entry_id: string | null;
  };
  files: {
    id: string;
    purpose: string;
    filename: string;
    mime_type: string;
    bytes: number;
    created_at: number;
    key_id: string | null;
  };
  model_state: { id: string; metadata: string; archived: number; deleted: number; updated_at: number };
  batches: {
    id: string;
    status: string;
    endpoint: string;
    input_file_id: string;
    output_file_id: string | null;
    error_file_id: string | null;
    completion_window: string;
    metadata: string;
    created_at: number;
    in_progress_at: number | null;
    completed_at: number | null;
    cancelled_at: number | null;
    failed_at: number | null;
    total: number;
    completed: number;
    failed: number;
    key_id: string | null;
    errors: string;
  };
  batch_lines: {
    batch_id: string;
    custom_id: string;
    line: number;
    ok: number;
    result: string;
  };
  /** OpenAI's evals: a data source config and testing criteria (JSON), owned by the key that made them. */
  evals: {
    id: string;
    name: string;
    /** JSON object, or 'null'. */
    metadata: string;
    data_source_config: string;
    testing_criteria: string;
    /** Seconds. */
    created_at: number;
    key_id: string | null;
  };
  /** One run of an eval; the result counters grow as items are stored, `summary` is written when it ends. */
  eval_runs: {
    id: string;
    eval_id: string;
    name: string;
    model: string | null;
    status: string;
    data_source: string;
    metadata: string;
    /** JSON `{code, message}` of a failed run, or null. */
    error: string | null;
    created_at: number;
    key_id: string | null;
    total: number;
    passed: number;
    failed: number;
    errored: number;
    /** JSON `{per_model_usage, per_testing_criteria_results}` once the run ended, else null (read from the items). */
    summary: string | null;
  };
  /** A run's output item: one per row of its data, stored once per (run, row). */
  eval_run_items: {
    run_id: string;
    item_index: number;
    id: string;
    created_at: number;
    status: string;
    datasource_item: string;
    sample: string;
    results: string;
    /** JSON `[{model, calls, prompt_tokens, completion_tokens, cached_tokens}]`: the sample's and the judges' requests. */
    usage: string;
  };
  agents: {
    id: string;
    name: string;
    model: string;
    instructions: string | null;
    tools: string;
    description: string | null;
    created_at: number;
    /** The key that created the agent (null: created before ownership was recorded; Owners only). */
    key_id: string | null;
    /** The current version; versions 0 … version - 1 are in `history`. */
    version: number;
    /** When the current version was made (null: never updated since before versions were recorded). */
    updated_at: number | null;
    /** JSON array: the earlier configurations, oldest first, each with the time it was made. */
    history: string;
    /** The version served when none is named (null: the newest, `version`). */
    active_version: number | null;
    /** JSON object: the chat parameters every turn of the agent uses. */
    completion_args: string;
  };
  usage_daily: {
    day: number;
    key_id: string;
    model: string;
    requests: number;
    prompt_tokens: number;
    completion_tokens: number;
    cost: number;
  };
  agent_aliases: { agent_id: string; alias: string; version: number; created_at: number; updated_at: number };
  model_downloads: {
    id: string;
    repo: string;
    file: string;
    revision: string;
    commit_sha: string | null;
    sha256: string | null;
    download_url: string | null;
    target: string;
    status: string;
    bytes_total: number | null;
    bytes_done: number;
    error: string | null;
    created_at: number;
    updated_at: number;
  };
  responses: {
    id: string;
    created_at: number;
    key_id: string | null;
    native: number;
    response: string;
    input_items: string;
    context_items: string;
  };
  response_items: { id: string; response_id: string; item: string };
  request_log: { id: string; time: number; entry: string };
  response_cache: {
    cache_key: string;
    context_key: string;
    /** Semantic entries: the last user message's embedding (base64 of float32s). */
    embedding: string | null;
    /** The stored answer (JSON). */
    answer: string;
    bytes: number;
    created_at: number;
    expires_at: number;
    used_at: number;
  };
  route_overrides: { id: string; route: string | null; deleted: number; updated_at: number };
  gateway_settings: { kind: string; id: string; value: string | null; updated_at: number };
  conversations: {
    id: string;
    key_id: string | null;
    /** Set when the conversation talks to an agent; `model`, `instructions` and `tools` are then the agent's at `agent_version`. */
    agent_id: string | null;
    agent_version: number | null;
    model: string;
    instructions: string | null;
    tools: string;
    name: string | null;
    description: string | null;
    metadata: string | null;
    entries: string;
    created_at: number;
    updated_at: number;
  };
}

/** A row of `table` as a select returns it. */
export type Row<T extends keyof Tables> = Selectable<Tables[T]>;
