import { describe, expect, it } from 'vitest';
import { MAX_OCR_FILE_BYTES, ocrFileProblem } from '../../../../src/features/ocr/components/ocr-inspector';

const file = (name: string, type: string, bytes = 10) => {
  const f = new File([new Uint8Array(1)], name, { type });
  Object.defineProperty(f, 'size', { value: bytes });
  return f;
};

describe('files offered to OCR', () => {
  it('refuses a non-image before uploading it, naming what is accepted', () => {
    expect(
      ocrFileProblem(file('notes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')),
    ).toMatch(/not an image or a PDF.*PNG, JPEG/);
  });
  it('refuses a file over the size limit before uploading it', () => {
    expect(ocrFileProblem(file('scan.pdf', 'application/pdf', 60 * 1024 * 1024))).toMatch(/60 MB.*36 MB/);
  });
  it('accepts images and PDFs, also by extension when the browser gives no type', () => {
    expect(ocrFileProblem(file('page.png', 'image/png'))).toBeNull();
    expect(ocrFileProblem(file('scan.TIF', ''))).toBeNull();
    expect(ocrFileProblem(file('doc.pdf', 'application/pdf', MAX_OCR_FILE_BYTES))).toBeNull();
  });
});
