const ATTR_CHAR = /[A-Za-z0-9!#$&+.^_`|~-]/;

/**
 * A Content-Disposition value for any file name: an ASCII fallback in `filename` and the exact name,
 * UTF-8 percent-encoded, in `filename*` (RFC 6266 / RFC 8187). Header values cannot carry raw
 * non-Latin-1 text, so the name alone would make Node refuse to send the response.
 */
export function contentDisposition(filename: string, type: 'inline' | 'attachment' = 'inline'): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = [...Buffer.from(filename, 'utf8')].map((byte) => {
    const char = String.fromCharCode(byte);
    return byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  });
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded.join('')}`;
}
