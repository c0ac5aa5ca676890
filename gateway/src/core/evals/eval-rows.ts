import type { EvalRow, EvalRunSource } from '../../wire/eval-schemas.js';
import type { OwnerScope } from '../../store/owner-scope.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { FileStore } from '../files/file-store.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A run's rows: inline (`file_content`), or each line of an uploaded JSONL file, which is
 * `{"item": {...}, "sample": {...}}` as OpenAI writes eval files, or a bare item object. A line that
 * is neither is a 422 naming the file and the line.
 */
export async function evalRows(source: EvalRunSource, files: FileStore, owner?: OwnerScope): Promise<EvalRow[]> {
  if (source.type === 'file_content') return source.content;
  const param = 'data_source.source.id';
  const { content } = await files.content(source.id, owner).catch((error: unknown) => {
    throw error instanceof GatewayError ? new GatewayError(error.status, error.code, error.message, { param }) : error;
  });
  const rows: EvalRow[] = [];
  for (const [index, line] of content.toString('utf8').split('\n').entries()) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new GatewayError(422, 'invalid_eval_file', `Line ${index + 1} of file ${source.id} is not JSON.`, {
        param,
      });
    }
    if (!isObject(parsed))
      throw new GatewayError(422, 'invalid_eval_file', `Line ${index + 1} of file ${source.id} is not a JSON object.`, {
        param,
      });
    const sample = parsed.sample;
    rows.push(
      isObject(parsed.item) ? { item: parsed.item, ...(isObject(sample) ? { sample } : {}) } : { item: parsed },
    );
  }
  return rows;
}
