import type { BatchResultLine } from './batch-types';

/** Parses a JSONL result file; lines that are not JSON objects are skipped. */
export function parseResultLines(jsonl: string): BatchResultLine[] {
  return jsonl
    .split('\n')
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return value && typeof value === 'object' ? [value as BatchResultLine] : [];
      } catch {
        return [];
      }
    });
}

/** The text a result line carries: the answer's content, or the error's message. */
export function resultText(line: BatchResultLine): string {
  if (line.error) return line.error.message;
  const body = line.response?.body as
    | {
        choices?: { message?: { content?: string }; text?: string }[];
        data?: { embedding?: number[] }[];
        message?: string;
      }
    | undefined;
  const choice = body?.choices?.[0];
  if (choice?.message?.content !== undefined) return choice.message.content;
  if (choice?.text !== undefined) return choice.text;
  if (body?.data?.[0]?.embedding) return `embedding of ${body.data[0].embedding.length} dimensions`;
  return body?.message ?? JSON.stringify(body ?? null);
}

/** Why lines failed: each distinct reason with how many lines gave it, the most frequent first. */
export function failureReasons(lines: readonly BatchResultLine[], limit = 3): { reason: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const reason = resultText(line);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count)
    .slice(0, limit);
}
