export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Append only: a released migration is never edited. */
export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'keys, account and usage ledger',
    sql: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER,
        spend_limit REAL,
        rpm_limit INTEGER
      );
      CREATE TABLE account (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        full_name TEXT NOT NULL,
        currency TEXT NOT NULL,
        balance REAL NOT NULL,
        spend_limit REAL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE usage (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time INTEGER NOT NULL,
        request_id TEXT NOT NULL,
        key_id TEXT,
        method TEXT NOT NULL,
        route TEXT NOT NULL,
        model TEXT,
        status INTEGER NOT NULL,
        latency_ms REAL NOT NULL,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        cost REAL NOT NULL DEFAULT 0
      );
      CREATE INDEX usage_key_time ON usage (key_id, time);
      CREATE INDEX usage_time ON usage (time);
    `,
  },
  {
    version: 2,
    name: 'files, batches, model state and agents',
    sql: `
      CREATE TABLE files (
        id TEXT PRIMARY KEY,
        purpose TEXT NOT NULL,
        filename TEXT NOT NULL,
        mime_type TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        key_id TEXT
      );
      CREATE INDEX files_purpose ON files (purpose, created_at);
      CREATE TABLE model_state (
        id TEXT PRIMARY KEY,
        metadata TEXT NOT NULL DEFAULT '{}',
        archived INTEGER NOT NULL DEFAULT 0,
        deleted INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        input_file_id TEXT NOT NULL,
        output_file_id TEXT,
        error_file_id TEXT,
        completion_window TEXT NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at INTEGER NOT NULL,
        in_progress_at INTEGER,
        completed_at INTEGER,
        cancelled_at INTEGER,
        failed_at INTEGER,
        total INTEGER NOT NULL DEFAULT 0,
        completed INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        key_id TEXT
      );
      CREATE TABLE agents (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        model TEXT NOT NULL,
        instructions TEXT,
        tools TEXT NOT NULL DEFAULT '[]',
        description TEXT,
        created_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'batch validation errors',
    sql: `ALTER TABLE batches ADD COLUMN errors TEXT NOT NULL DEFAULT '[]';`,
  },
  {
    version: 4,
    name: 'resource owners',
    // Agents created before this migration have no owner (key_id NULL): only Owner keys see them.
    sql: `
      ALTER TABLE agents ADD COLUMN key_id TEXT;
      CREATE INDEX agents_key ON agents (key_id, created_at);
      CREATE INDEX files_key ON files (key_id, created_at);
      CREATE INDEX batches_key ON batches (key_id, created_at);
    `,
  },
  {
    version: 5,
    name: 'model downloads',
    sql: `
      CREATE TABLE model_downloads (
        id TEXT PRIMARY KEY,
        repo TEXT NOT NULL,
        file TEXT NOT NULL,
        revision TEXT NOT NULL,
        commit_sha TEXT,
        sha256 TEXT,
        download_url TEXT,
        target TEXT NOT NULL,
        status TEXT NOT NULL,
        bytes_total INTEGER,
        bytes_done INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX model_downloads_file ON model_downloads (repo, file, revision);
    `,
  },
  {
    version: 6,
    name: 'stored Responses API responses',
    sql: `
      CREATE TABLE responses (
        id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        key_id TEXT,
        native INTEGER NOT NULL DEFAULT 0,
        response TEXT NOT NULL,
        input_items TEXT NOT NULL,
        context_items TEXT NOT NULL DEFAULT '[]'
      );
      CREATE TABLE response_items (
        id TEXT PRIMARY KEY,
        response_id TEXT NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
        item TEXT NOT NULL
      );
      CREATE INDEX response_items_response ON response_items (response_id);
    `,
  },
  {
    version: 7,
    name: 'request log kept across restarts',
    sql: `
      CREATE TABLE request_log (
        id TEXT PRIMARY KEY,
        time INTEGER NOT NULL,
        entry TEXT NOT NULL
      );
      CREATE INDEX request_log_time ON request_log (time);
    `,
  },
  {
    version: 8,
    name: 'model routes added, edited or removed in the console',
    sql: `
      CREATE TABLE route_overrides (
        id TEXT PRIMARY KEY,
        route TEXT,
        deleted INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 9,
    name: 'agent versions and conversations',
    // An agent's earlier configurations are kept in `history` (a JSON array, oldest first), so
    // version n of an agent is history[n] and its current one is `version`.
    sql: `
      ALTER TABLE agents ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE agents ADD COLUMN updated_at INTEGER;
      ALTER TABLE agents ADD COLUMN history TEXT NOT NULL DEFAULT '[]';
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        key_id TEXT,
        agent_id TEXT,
        agent_version INTEGER,
        model TEXT NOT NULL,
        instructions TEXT,
        tools TEXT NOT NULL DEFAULT '[]',
        name TEXT,
        description TEXT,
        metadata TEXT,
        entries TEXT NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX conversations_key ON conversations (key_id, created_at);
    `,
  },
];
