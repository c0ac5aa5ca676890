import { deflateSync, gzipSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

/**
 * The attacks of issue 31, as requests one Member key can send: each a few hundred bytes to a few
 * hundred kilobytes that, decoded or evaluated carelessly, stall the event loop or take memory in
 * gigabytes. Sizes are chosen to show the problem while keeping the benchmark short.
 */
export interface HostileRequest {
  name: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

const OCR_MODEL = 'svc-ocr-3-2512';

function jsonRequest(name: string, path: string, body: unknown, gzip = false): HostileRequest {
  const text = Buffer.from(JSON.stringify(body));
  return {
    name,
    path,
    headers: { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
    body: gzip ? gzipSync(text) : text,
  };
}

const dataUrl = (mediaType: string, bytes: Uint8Array) =>
  `data:${mediaType};base64,${Buffer.from(bytes).toString('base64')}`;

/** A one-page PDF whose page draws `content` (raw operators, deflated), with `resources` added to the page. */
async function pdfWithContent(content: Buffer, image?: { width: number; height: number }): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([200, 200]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText(' ', { font, size: 1 });
  const stream = PDFRawStream.of(pdf.context.obj({ Filter: 'FlateDecode' }), deflateSync(content));
  const contentRef = pdf.context.register(stream);
  if (image) {
    const pixels = deflateSync(Buffer.alloc(image.width * image.height));
    const xobject = PDFRawStream.of(
      pdf.context.obj({
        Type: 'XObject',
        Subtype: 'Image',
        Width: image.width,
        Height: image.height,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 8,
        Filter: 'FlateDecode',
      }),
      pixels,
    );
    const imageRef = pdf.context.register(xobject);
    page.node.setXObject(PDFName.of('Im0'), imageRef);
  }
  page.node.set(PDFName.of('Contents'), contentRef);
  return pdf.save();
}

/** A 1-bit BMP header that declares `width` × `height` pixels, with its pixel rows (zeros). */
function bigBmp(width: number, height: number): Buffer {
  const rowBytes = Math.ceil(width / 32) * 4;
  const pixelBytes = rowBytes * height;
  const header = Buffer.alloc(62);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(62 + pixelBytes, 2);
  header.writeUInt32LE(62, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(1, 28);
  header.writeUInt32LE(pixelBytes, 34);
  header.writeUInt32LE(0x00ffffff, 58); // palette: black, white
  return Buffer.concat([header, Buffer.alloc(pixelBytes)]);
}

/** A small white PNG as a data URL: an OCR request that costs next to nothing. */
export async function smallPngDataUrl(): Promise<string> {
  return dataUrl(
    'image/png',
    await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 255, g: 255, b: 255 } } })
      .png()
      .toBuffer(),
  );
}

/** Every attack once, built ahead (building the PDFs takes a few seconds). */
export async function hostileRequests(): Promise<HostileRequest[]> {
  const redosName = `${'a'.repeat(28)}!`;
  const bigSchema = {
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`field_${i}`, { type: 'string' }])),
  };
  const textOps = Buffer.from(`BT /F1 1 Tf ${'(a) Tj '.repeat(200_000)}ET`);
  const smallPng = await smallPngDataUrl();
  const png16 = await sharp(Buffer.alloc(4000 * 4000 * 2, 0x7f), {
    raw: { width: 4000, height: 4000, channels: 1, premultiplied: false },
  })
    .toColourspace('grey16')
    .png({ compressionLevel: 9 })
    .toBuffer();
  return [
    jsonRequest('base64 with 150,000 spaces', '/v1/ocr', { model: OCR_MODEL, image: `A${' '.repeat(150_000)}!` }, true),
    jsonRequest('schema pattern ^(a+)+$', '/v1/ocr', {
      model: OCR_MODEL,
      image: smallPng,
      structured_output: true,
      schema: {
        type: 'object',
        propertyNames: { pattern: '^(a+)+$' },
        properties: { [redosName]: { type: 'string' } },
      },
    }),
    jsonRequest('schema of 50,000 properties', '/v1/ocr', {
      model: OCR_MODEL,
      image: smallPng,
      structured_output: true,
      schema: bigSchema,
    }),
    jsonRequest('PDF stream inflating to 256 MiB', '/v1/ocr', {
      model: OCR_MODEL,
      image: dataUrl('application/pdf', await pdfWithContent(Buffer.alloc(256 * 2 ** 20, 0x20))),
    }),
    jsonRequest('PDF showing a 20000 x 20000 image', '/v1/ocr', {
      model: OCR_MODEL,
      image: dataUrl(
        'application/pdf',
        await pdfWithContent(Buffer.from('q 200 0 0 200 0 0 cm /Im0 Do Q'), { width: 20_000, height: 20_000 }),
      ),
    }),
    jsonRequest('PDF with 200,000 text operations', '/v1/ocr', {
      model: OCR_MODEL,
      image: dataUrl('application/pdf', await pdfWithContent(textOps)),
    }),
    jsonRequest(
      '1-bit BMP of 16000 x 16000',
      '/v1/ocr',
      { model: OCR_MODEL, image: dataUrl('image/bmp', bigBmp(16_000, 16_000)) },
      true,
    ),
    jsonRequest('16-bit PNG of 4000 x 4000', '/v1/ocr', { model: OCR_MODEL, image: dataUrl('image/png', png16) }),
    jsonRequest(
      'chat gzipped, 45 MB inflated',
      '/v1/chat/completions',
      { model: 'bench-model', messages: [{ role: 'user', content: ' '.repeat(45 * 2 ** 20) }] },
      true,
    ),
  ];
}
