/** Raw multipart/form-data bodies, so tests can also send broken ones (no boundary, truncated, ...). */
export interface MultipartPart {
  name: string;
  content: string | Buffer;
  /** Makes the part a file. */
  filename?: string;
  contentType?: string;
}

export const BOUNDARY = 'sweep-boundary-7d91';

export function multipartBody(parts: MultipartPart[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type =
      part.filename !== undefined ? `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
      Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export const multipartType = (boundary = BOUNDARY) => `multipart/form-data; boundary=${boundary}`;
