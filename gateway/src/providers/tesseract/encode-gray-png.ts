import { crc32, deflateSync } from 'node:zlib';
import type { GrayImage } from '../../media/image/decode-image.js';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Encodes a grayscale PNG with no resolution chunk. Tesseract reads a pHYs chunk as the scan's DPI
 * (sharp writes 72 DPI, which Tesseract rejects and replaces with 70, shrinking its size limits);
 * without one it estimates the resolution from the text, as the `tesseract` command does.
 */
export function encodeGrayPng(image: GrayImage): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  const rows = Buffer.alloc((image.width + 1) * image.height);
  for (let y = 0; y < image.height; y++) {
    rows[y * (image.width + 1)] = 0; // filter: none
    rows.set(image.data.subarray(y * image.width, (y + 1) * image.width), y * (image.width + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
