import sharp from 'sharp';

/** Re-encodes an image as a 24-bit bottom-up BMP (sharp cannot write BMP). */
export async function toBmp(image: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const stride = Math.ceil((info.width * 3) / 4) * 4;
  const out = Buffer.alloc(54 + stride * info.height);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(info.width, 18);
  out.writeInt32LE(info.height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  for (let y = 0; y < info.height; y++) {
    const row = 54 + (info.height - 1 - y) * stride;
    for (let x = 0; x < info.width; x++) {
      const src = (y * info.width + x) * info.channels;
      out[row + x * 3] = data[src + 2];
      out[row + x * 3 + 1] = data[src + 1];
      out[row + x * 3 + 2] = data[src];
    }
  }
  return out;
}
