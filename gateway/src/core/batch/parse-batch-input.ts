export interface BatchRequestLine {
  custom_id: string;
  body: Record<string, unknown>;
}

export interface BatchInputProblem {
  line: number;
  message: string;
}

/**
 * Reads a batch input file: JSON Lines of `{custom_id, method?, url?, body}` (OpenAI's layout; Mistral's
 * `{custom_id, body}` works too). Every line's url, when given, must be the batch's endpoint.
 */
export function parseBatchInput(
  content: string,
  endpoint: string,
): { requests: BatchRequestLine[]; problems: BatchInputProblem[] } {
  const requests: BatchRequestLine[] = [];
  const problems: BatchInputProblem[] = [];
  const seen = new Set<string>();
  content.split(/\r?\n/).forEach((text, index) => {
    const line = index + 1;
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      problems.push({ line, message: 'not valid JSON' });
      return;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      problems.push({ line, message: 'each line must be a JSON object' });
      return;
    }
    const entry = parsed as Record<string, unknown>;
    const body = entry.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      problems.push({ line, message: "'body' must be the request's JSON object" });
      return;
    }
    if (entry.url !== undefined && entry.url !== endpoint && `/v1${String(entry.url)}` !== endpoint) {
      problems.push({ line, message: `'url' ${String(entry.url)} differs from the batch endpoint ${endpoint}` });
      return;
    }
    if (entry.method !== undefined && String(entry.method).toUpperCase() !== 'POST') {
      problems.push({ line, message: "'method' must be POST" });
      return;
    }
    const customId = entry.custom_id === undefined ? `request-${line}` : String(entry.custom_id);
    if (seen.has(customId)) {
      problems.push({ line, message: `'custom_id' ${customId} is used twice` });
      return;
    }
    seen.add(customId);
    requests.push({ custom_id: customId, body: body as Record<string, unknown> });
  });
  if (requests.length === 0 && problems.length === 0)
    problems.push({ line: 0, message: 'the input file holds no requests' });
  return { requests, problems };
}
