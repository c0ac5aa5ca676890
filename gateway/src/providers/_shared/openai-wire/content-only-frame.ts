/** A JSON string literal, read as runs of plain characters between escapes. */
const JSON_STRING = String.raw`"[^"\\]*(?:\\.[^"\\]*)*"`;

/** `,"<name>":<string or null>`, when present. */
const optionalStringMember = (name: string) => String.raw`(?:,"${name}":(?:${JSON_STRING}|null))?`;

/**
 * The text of a chat chunk with one choice whose delta is only `content`, no finish reason, no usage
 * and no error, with the fields OpenAI-style servers send around it in their order (id, model,
 * service tier, fingerprint, `logprobs: null`, `usage: null`) and nothing else. It captures the
 * choice's index and its text's string literal.
 */
const CONTENT_ONLY_FRAME = new RegExp(
  '^' +
    String.raw`\{"id":${JSON_STRING},"object":"chat\.completion\.chunk","created":\d+,"model":${JSON_STRING}` +
    optionalStringMember('service_tier') +
    optionalStringMember('system_fingerprint') +
    String.raw`,"choices":\[\{"index":(\d+),"delta":\{"content":(${JSON_STRING})\}` +
    String.raw`(?:,"logprobs":null)?,"finish_reason":null\}\]` +
    String.raw`(?:,"usage":null)?\}` +
    '$',
);

/**
 * Reads a frame of an upstream chat stream that carries nothing but text for one choice (most frames
 * do) without parsing the whole frame: its choice and text, or undefined for any other frame (role,
 * tool calls, finish reasons, usage, errors, other fields or another order), which the caller parses.
 */
export function readContentOnlyFrame(data: string): { index: number; content: string } | undefined {
  const match = CONTENT_ONLY_FRAME.exec(data);
  if (!match) return undefined;
  const [, index, literal] = match;
  try {
    return { index: Number(index), content: JSON.parse(literal) as string };
  } catch {
    // Not valid JSON (an unknown escape, a raw control character): the caller's full parse reports the frame.
    return undefined;
  }
}
