import { describe, expect, it } from 'vitest';
import { decodeGray } from '../../src/media/image/decode-image.js';
import { MediaError } from '../../src/media/media-error.js';
import { openPdf } from '../../src/media/pdf/open-pdf.js';

describe('media errors', () => {
  it('media throws its own MediaError, with the stable code the client sees', async () => {
    await expect(decodeGray(Buffer.alloc(0))).rejects.toMatchObject({
      kind: 'invalid_document',
      code: 'empty_document',
    });
    const notAnImage = await decodeGray(Buffer.from('just some text'), { mediaType: 'image/png' }).catch((e) => e);
    expect(notAnImage).toBeInstanceOf(MediaError);
    expect(notAnImage).toMatchObject({ kind: 'invalid_document', code: 'unsupported_media_type' });
    const corrupt = await openPdf(Buffer.from('%PDF-1.7\nnot a pdf'), 1e6).catch((e) => e);
    expect(corrupt).toBeInstanceOf(MediaError);
    expect(corrupt).toMatchObject({ kind: 'invalid_document', code: 'corrupt_pdf' });
  });
});
