import { constants, deflateRawSync } from 'node:zlib';

/**
 * A PDF whose objects are `objects` (numbered from 1; object 1 is the catalog), with a correct
 * cross-reference table. A body is a dictionary, or a stream as `{ dictionary, data }`.
 */
export function buildPdf(objects: (string | { dictionary: string; data: Buffer })[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0].length;
  const offsets: number[] = [];
  const push = (part: Buffer) => {
    parts.push(part);
    length += part.length;
  };
  objects.forEach((body, index) => {
    offsets.push(length);
    if (typeof body === 'string') {
      push(Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`, 'latin1'));
    } else {
      push(Buffer.from(`${index + 1} 0 obj\n<< ${body.dictionary} /Length ${body.data.length} >>\nstream\n`, 'latin1'));
      push(body.data);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  });
  const xref = length;
  const rows = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/** A catalog, a page tree and one page of `width`×`height` points drawing `contents` (object 4) with `resources`. */
export function onePagePdf(contents: { dictionary: string; data: Buffer }, resources = '<< >>', extra: (string | { dictionary: string; data: Buffer })[] = [], width = 612, height = 792): Buffer {
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R /Resources ${resources} >>`,
    contents,
    ...extra,
  ]);
}

/**
 * A zlib stream that inflates to `mebibytes` MiB of `byte`, built without ever holding them: one
 * MiB deflated with a full flush (no reference back), repeated, then a final block and the checksum.
 */
export function deflateBomb(mebibytes: number, byte = 0x20): Buffer {
  const block = deflateRawSync(Buffer.alloc(2 ** 20, byte), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const n = BigInt(mebibytes) * 2n ** 20n;
  const modulus = 65521n;
  const a = (1n + n * BigInt(byte)) % modulus;
  const b = (n + (BigInt(byte) * n * (n + 1n)) / 2n) % modulus;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: mebibytes }, () => block), Buffer.from([0x03, 0x00]), adler]);
}
