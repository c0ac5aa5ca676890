export interface RequestLogEntry {
  id: string;
  time: number;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  key_prefix: string | null;
  model: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cost: number | null;
  request_body?: string;
  response_body?: string;
}

type Listener = (entry: RequestLogEntry) => void;

/** The last N requests, for the console's live request log; subscribers get each new entry. */
export class RequestLog {
  private readonly entries: RequestLogEntry[] = [];
  private readonly listeners = new Set<Listener>();

  constructor(private readonly capacity: number) {}

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    for (const listener of this.listeners) listener(entry);
  }

  /** Newest first. */
  recent(limit: number): RequestLogEntry[] {
    return this.entries.slice(-limit).reverse();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const SECRET_PATTERNS: [RegExp, string][] = [
  [/sk-[A-Za-z0-9_-]{8,}/g, 'sk-…[redacted]'],
  [/("(?:api_key|apiKey|authorization|password|secret)"\s*:\s*")[^"]*"/gi, '$1[redacted]"'],
];

/** A body for the request log: secrets redacted, cut to `maxBytes`. */
export function redactBody(body: string, maxBytes = 4096): string {
  // Cut before redacting (with room for a secret straddling the cut), so a huge body costs no more than a small one.
  const cut = body.length > maxBytes + 256 ? body.slice(0, maxBytes + 256) : body;
  let text = cut;
  for (const [pattern, replacement] of SECRET_PATTERNS) text = text.replace(pattern, replacement);
  if (text.length <= maxBytes && cut.length === body.length) return text;
  return `${text.slice(0, maxBytes)}… [cut from ${body.length} characters]`;
}
