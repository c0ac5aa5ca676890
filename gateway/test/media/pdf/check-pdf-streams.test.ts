import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkPdfStreams, countOperators } from '../../../src/media/pdf/check-pdf-streams.js';
import { makeTextPdf } from '../../support/draw-text.js';
import { deflateBomb, onePagePdf } from '../../support/hostile-documents.js';

const limits = { maxImagePixels: 40_000_000, maxStreamBytes: 64 * 2 ** 20, maxOperators: 1000 };
const ops = (text: string) => countOperators(Buffer.from(text, 'latin1'), 1_000_000);

describe('countOperators', () => {
  it('counts operators, not the operands, strings, names or numbers they take', () => {
    expect(ops('BT /F1 12 Tf 72 700 Td (Hello) Tj ET')).toBe(5);
    expect(ops('q 1 0 0 1 -5.5 +.25 cm [(A) -120 (B)] TJ Q')).toBe(4);
    expect(ops('(nested (parens) and \\) escaped Tj Tj) Tj <48656c6c6f> Tj % a comment Tj\nET')).toBe(3);
    expect(ops('<< /MCID 3 >> BDC EMC')).toBe(2);
  });

  it('skips inline image data, whatever bytes it holds', () => {
    expect(ops('q BI /W 4 /H 1 /BPC 8 /CS /G ID Tj Tj Tj\x00\xff EI Q')).toBe(4);
  });

  it('stops counting past the cap', () => {
    expect(countOperators(Buffer.from('n '.repeat(10_000), 'latin1'), 100)).toBe(101);
  });
});

describe('checkPdfStreams', () => {
  it('lets an ordinary PDF through', async () => {
    const { pdf } = await makeTextPdf([{ lines: [{ text: 'An ordinary page of text', x: 72, y: 100, size: 14 }] }]);
    expect(() => checkPdfStreams(pdf, limits)).not.toThrow();
  });

  it('refuses a stream that inflates past the limit, a content stream of too many operators, and an image over the pixel limit', () => {
    expect(() =>
      checkPdfStreams(onePagePdf({ dictionary: '/Filter /FlateDecode', data: deflateBomb(65) }), limits),
    ).toThrow(expect.objectContaining({ kind: 'too_large', code: 'pdf_stream_too_large' }));
    const busy = onePagePdf({
      dictionary: '/Filter /FlateDecode',
      data: deflateSync(Buffer.from('0 0 m '.repeat(1200), 'latin1')),
    });
    expect(() => checkPdfStreams(busy, limits)).toThrow(
      expect.objectContaining({ kind: 'too_large', code: 'pdf_page_too_complex' }),
    );
    const image = onePagePdf(
      { dictionary: '', data: Buffer.from('/Im1 Do', 'latin1') },
      '<< /XObject << /Im1 5 0 R >> >>',
      [
        {
          dictionary:
            '/Type /XObject /Subtype /Image /Width 8000 /Height 6000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode',
          data: Buffer.alloc(16),
        },
      ],
    );
    expect(() => checkPdfStreams(image, limits)).toThrow(
      expect.objectContaining({ kind: 'too_large', code: 'image_too_large', param: 'max_pixels' }),
    );
  });

  it('does not count the binary data of a mesh shading as operators', () => {
    const shading = onePagePdf(
      { dictionary: '', data: Buffer.from('/Sh1 sh', 'latin1') },
      '<< /Shading << /Sh1 5 0 R >> >>',
      [
        {
          dictionary:
            '/ShadingType 4 /ColorSpace /DeviceRGB /BitsPerCoordinate 16 /BitsPerComponent 8 /BitsPerFlag 8 /Decode [0 1 0 1 0 1 0 1 0 1]',
          data: Buffer.from('ab '.repeat(5000), 'latin1'),
        },
      ],
    );
    expect(() => checkPdfStreams(shading, limits)).not.toThrow();
  });
});
