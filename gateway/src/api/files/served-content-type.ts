/** Types served as themselves: passive formats a browser does not run. */
const PASSIVE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'application/pdf',
  'text/plain',
  'application/json',
  'application/jsonl',
  'application/x-ndjson',
  'audio/wav',
  'audio/mpeg',
]);

/**
 * The Content-Type a stored file is served with: its own when passive, otherwise (HTML, SVG, XML,
 * JavaScript, anything unknown) application/octet-stream, so nothing a client uploaded can run on
 * the gateway's origin.
 */
export function servedContentType(mimeType: string): string {
  const type = mimeType.split(';')[0].trim().toLowerCase();
  if (!PASSIVE_TYPES.has(type)) return 'application/octet-stream';
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}
