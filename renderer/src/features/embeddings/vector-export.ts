import { toCsv } from '../../lib/csv';

/** One embedded text and its vector, in input order. */
export interface EmbeddedText {
  text: string;
  embedding: number[];
}

export const vectorsToJson = (rows: readonly EmbeddedText[], model: string): string =>
  JSON.stringify(
    { model, data: rows.map((row, index) => ({ index, text: row.text, embedding: row.embedding })) },
    null,
    2,
  );

/** One row per text: the text (formulas defused), then one column per dimension (d0, d1, …). */
export function vectorsToCsv(rows: readonly EmbeddedText[]): string {
  const dimensions = rows[0]?.embedding.length ?? 0;
  const header = ['text', ...Array.from({ length: dimensions }, (_, i) => `d${i}`)];
  return toCsv([header, ...rows.map((row) => [row.text, ...row.embedding])], '\n');
}
