import { CompiledQuery } from 'kysely';
import type { Dialect } from './database.js';

/** SQL texts kept per INSERT (the batch sizes of group commits repeat). */
const CACHED_TEXTS = 64;

/**
 * A multi-row INSERT written by hand for the hot write paths (the usage ledger, the request log):
 * its SQL text is built once per dialect and row count and kept, the values bound in column order.
 * Kysely compiling the same statement on every commit was a measurable share of the gateway's time.
 */
export class MultiRowInsert<Row extends object> {
  private readonly head: string;
  private readonly texts = new Map<string, string>();

  constructor(
    table: string,
    private readonly columns: readonly (keyof Row & string)[],
    /** What follows the VALUES list (an ON CONFLICT clause). */
    private readonly tail = '',
  ) {
    this.head = `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')})`;
  }

  /** One INSERT of these rows, ready for `Database.atomically`. */
  compile(dialect: Dialect, rows: readonly Row[]): CompiledQuery {
    const key = `${dialect}:${rows.length}`;
    let text = this.texts.get(key);
    if (text === undefined) {
      const tuple = `(${this.columns.map(() => '?').join(', ')})`;
      text = numberedFor(
        dialect,
        `${this.head} VALUES ${Array.from({ length: rows.length }, () => tuple).join(', ')}${this.tail}`,
      );
      if (this.texts.size >= CACHED_TEXTS) this.texts.delete(this.texts.keys().next().value!);
      this.texts.set(key, text);
    }
    const parameters: unknown[] = [];
    for (const row of rows) for (const column of this.columns) parameters.push(row[column] ?? null);
    return CompiledQuery.raw(text, parameters);
  }
}

/** `?` placeholders as the dialect numbers them (`$1`, `$2`… for PostgreSQL). */
export function numberedFor(dialect: Dialect, text: string): string {
  if (dialect !== 'postgres') return text;
  let index = 0;
  return text.replace(/\?/g, () => `$${++index}`);
}
