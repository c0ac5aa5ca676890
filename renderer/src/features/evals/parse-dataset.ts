import type { EvalRow } from './eval-types';

export interface DatasetProblem {
  /** 1-based line of the JSONL text. */
  line: number;
  message: string;
}

export interface ParsedDataset {
  rows: EvalRow[];
  problems: DatasetProblem[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A line as a run row: `{"item": {...}, "sample": {...}}` as OpenAI writes it, or a bare item. */
function toRow(value: Record<string, unknown>): EvalRow | string {
  const keys = Object.keys(value);
  const wrapped = 'item' in value && keys.every((key) => key === 'item' || key === 'sample');
  if (!wrapped) return { item: value };
  if (!isPlainObject(value.item)) return '"item" must be a JSON object';
  if (value.sample !== undefined && !isPlainObject(value.sample)) return '"sample" must be a JSON object';
  return value.sample === undefined ? { item: value.item } : { item: value.item, sample: value.sample };
}

/**
 * A dataset pasted or uploaded as JSONL (one item per line), or as one JSON array of items. Every
 * line that is not an object is reported with its line number; the good lines are kept.
 */
export function parseDataset(text: string): ParsedDataset {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const list: unknown = JSON.parse(trimmed);
      if (Array.isArray(list)) return fromValues(list.map((value) => ({ line: 1, value })));
    } catch {
      // Not one array: read it line by line, which names the line at fault.
    }
  }
  const values: { line: number; value: unknown }[] = [];
  const problems: DatasetProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (!raw.trim()) return;
    try {
      values.push({ line: index + 1, value: JSON.parse(raw) });
    } catch {
      problems.push({ line: index + 1, message: 'not JSON' });
    }
  });
  const parsed = fromValues(values);
  return { rows: parsed.rows, problems: [...problems, ...parsed.problems].sort((a, b) => a.line - b.line) };
}

function fromValues(values: { line: number; value: unknown }[]): ParsedDataset {
  const rows: EvalRow[] = [];
  const problems: DatasetProblem[] = [];
  for (const { line, value } of values) {
    const row = isPlainObject(value) ? toRow(value) : 'a JSON object is expected';
    if (typeof row === 'string') problems.push({ line, message: row });
    else rows.push(row);
  }
  return { rows, problems };
}

/** The item fields of a dataset, in the order they first appear: what templates can name as `{{item.x}}`. */
export function datasetFields(rows: readonly EvalRow[]): string[] {
  const fields = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.item)) fields.add(key);
  return [...fields];
}

const jsonType = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;

/**
 * The eval's `item_schema` for these rows: each field with its JSON type when every row agrees on
 * it, required when every row has it, so the gateway checks later runs' rows the same way.
 */
export function itemSchemaOf(rows: readonly EvalRow[]): Record<string, unknown> {
  const properties: Record<string, Record<string, string>> = {};
  const required: string[] = [];
  for (const field of datasetFields(rows)) {
    const present = rows.filter((row) => field in row.item).map((row) => row.item[field]);
    const types = new Set(present.map(jsonType));
    const [type] = types;
    properties[field] = types.size === 1 && type !== 'null' ? { type } : {};
    if (present.length === rows.length) required.push(field);
  }
  return { type: 'object', properties, required };
}

/** The rows as the JSONL a run's `file_content` carries, one `{"item": …}` per line. */
export const datasetToJsonl = (rows: readonly EvalRow[]): string => rows.map((row) => JSON.stringify(row)).join('\n');
