import { constants, crc32, deflateRawSync } from 'node:zlib';

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
  push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/** A catalog, a page tree and one page of `width`×`height` points drawing `contents` (object 4) with `resources`. */
export function onePagePdf(
  contents: { dictionary: string; data: Buffer },
  resources = '<< >>',
  extra: (string | { dictionary: string; data: Buffer })[] = [],
  width = 612,
  height = 792,
): Buffer {
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R /Resources ${resources} >>`,
    contents,
    ...extra,
  ]);
}

const ADLER_MOD = 65521n;

/** Adler-32 of `bytes` as [a, b]. */
function adler32(bytes: Buffer): [bigint, bigint] {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return [BigInt(a), BigInt(b)];
}

/**
 * A zlib stream that inflates to `chunk` repeated `times`, built without ever holding the whole: the
 * chunk deflated once with a full flush (no reference back), repeated, then a final block and the
 * checksum (Adler-32 combined chunk by chunk).
 */
export function repeatedDeflate(chunk: Buffer, times: number): Buffer {
  const block = deflateRawSync(chunk, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const [chunkA, chunkB] = adler32(chunk);
  const length = BigInt(chunk.length);
  let [a, b] = [1n, 0n];
  for (let i = 0; i < times; i++) {
    b = (b + chunkB + length * (a - 1n)) % ADLER_MOD;
    a = (a + chunkA - 1n) % ADLER_MOD;
  }
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array.from({ length: times }, () => block),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

/** A zlib stream that inflates to `mebibytes` MiB of `byte` (a decompression bomb). */
export const deflateBomb = (mebibytes: number, byte = 0x20): Buffer =>
  repeatedDeflate(Buffer.alloc(2 ** 20, byte), mebibytes);

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A white 16-bit grayscale PNG of `side` × `side`, a few kilobytes, made without holding its pixels. */
export function white16BitPng(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 16;
  header[9] = 0;
  const row = Buffer.alloc(1 + side * 2, 0xff);
  row[0] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', repeatedDeflate(row, side)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1-bit bottom-up BMP of `side` × `side` white pixels. */
export function oneBitBmp(side: number): Buffer {
  const stride = Math.ceil(side / 32) * 4;
  const pixelOffset = 14 + 40 + 8;
  const bmp = Buffer.alloc(pixelOffset + stride * side, 0xff);
  bmp.write('BM', 0, 'latin1');
  bmp.writeUInt32LE(bmp.length, 2);
  bmp.writeUInt32LE(0, 6);
  bmp.writeUInt32LE(pixelOffset, 10);
  bmp.writeUInt32LE(40, 14);
  bmp.writeInt32LE(side, 18);
  bmp.writeInt32LE(side, 22);
  bmp.writeUInt16LE(1, 26);
  bmp.writeUInt16LE(1, 28);
  bmp.fill(0, 30, 54);
  bmp.writeUInt32LE(stride * side, 34);
  bmp.writeUInt32LE(2, 46);
  // Palette: black, white.
  bmp.writeUInt32LE(0x00000000, 54);
  bmp.writeUInt32LE(0x00ffffff, 58);
  return bmp;
}
