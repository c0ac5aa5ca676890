/** Magic-byte signatures of the document formats the OCR engine reads. */
const SIGNATURES: { mimeType: string; bytes: (number | null)[] }[] = [
  { mimeType: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mimeType: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { mimeType: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { mimeType: 'image/tiff', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { mimeType: 'image/tiff', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { mimeType: 'image/bmp', bytes: [0x42, 0x4d] },
  // RIFF....WEBP
  { mimeType: 'image/webp', bytes: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50] },
  { mimeType: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
];

/** The media type of `bytes` from its leading magic bytes, or null when it is none we read. */
export function sniffMediaType(bytes: Buffer): string | null {
  // PDFs may carry junk before the header; readers accept it within the first KiB.
  for (const signature of SIGNATURES) {
    if (signature.bytes.length <= bytes.length && signature.bytes.every((b, i) => b === null || bytes[i] === b)) {
      return signature.mimeType;
    }
  }
  const head = bytes.subarray(0, 1024).toString('latin1');
  if (head.includes('%PDF-')) return 'application/pdf';
  return null;
}

export const IMAGE_MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/tiff',
  'image/bmp',
  'image/webp',
] as const;
