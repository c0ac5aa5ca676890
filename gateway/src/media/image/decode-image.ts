import sharp, { type Metadata, type Sharp } from 'sharp';
import { MediaError } from '../media-error.js';
import { decodeBmp } from './decode-bmp.js';
import { sniffMediaType } from '../sniff-media-type.js';

/** An 8-bit grayscale image, one byte per pixel, row-major. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface DecodeImageOptions {
  /** Largest accepted width × height; larger images throw `too_large`. */
  maxPixels?: number;
}

/** Rejects what is not a readable image before any decoding work is done. */
export function assertImageBytes(bytes: Buffer): string {
  if (bytes.length === 0) {
    throw new MediaError(
      'invalid_document',
      'The document is empty (0 bytes). Send a PNG, JPEG, WebP, TIFF, BMP, GIF or PDF file.',
      {
        code: 'empty_document',
      },
    );
  }
  const mimeType = sniffMediaType(bytes);
  if (mimeType === null || mimeType === 'application/pdf') {
    throw new MediaError(
      'invalid_document',
      mimeType === null
        ? 'The document is not a supported image: its bytes match no PNG, JPEG, WebP, TIFF, BMP, GIF or PDF signature.'
        : 'A PDF cannot be decoded as an image; open it as a PDF.',
      { code: 'unsupported_media_type' },
    );
  }
  return mimeType;
}

function assertPixelLimit(width: number, height: number, maxPixels: number | undefined): void {
  if (maxPixels !== undefined && width * height > maxPixels) {
    throw new MediaError(
      'too_large',
      `The image is ${width}×${height} (${((width * height) / 1e6).toFixed(1)} megapixels), over the max_pixels limit of ${(maxPixels / 1e6).toFixed(1)} megapixels per page. Send a smaller image or raise max_pixels.`,
      { code: 'image_too_large', param: 'max_pixels' },
    );
  }
}

function corruptImage(mimeType: string, cause: unknown): MediaError {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return new MediaError(
    'invalid_document',
    `The ${mimeType} image could not be decoded (corrupt or truncated): ${reason}`,
    {
      code: 'corrupt_image',
      cause,
    },
  );
}

/** A sharp pipeline over any supported image; BMP goes through our own decoder. Orientation from EXIF is applied. */
async function openImage(bytes: Buffer, options: DecodeImageOptions): Promise<Sharp> {
  const mimeType = assertImageBytes(bytes);
  if (mimeType === 'image/bmp') {
    const bmp = decodeBmp(bytes, (width, height) => assertPixelLimit(width, height, options.maxPixels));
    return sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: 4 } });
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch (error) {
    throw corruptImage(mimeType, error);
  }
  assertPixelLimit(metadata.width ?? 0, metadata.height ?? 0, options.maxPixels);
  return sharp(bytes, { failOn: 'error', limitInputPixels: false }).autoOrient();
}

/** Decodes any supported image (first frame/page) to 8-bit grayscale, transparent areas on white. */
export async function decodeGray(bytes: Buffer, options: DecodeImageOptions = {}): Promise<GrayImage> {
  const image = await openImage(bytes, options);
  try {
    const { data, info } = await image
      .flatten({ background: '#ffffff' })
      .grayscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels === 1) return { data, width: info.width, height: info.height };
    const gray = new Uint8Array(info.width * info.height);
    for (let i = 0; i < gray.length; i++) gray[i] = data[i * info.channels];
    return { data: gray, width: info.width, height: info.height };
  } catch (error) {
    throw corruptImage(sniffMediaType(bytes) ?? 'image', error);
  }
}

/** Decodes any supported image (first frame/page) to a PNG (for engines that read only PNG), with its size and the density it names. */
export async function decodeToPng(
  bytes: Buffer,
  options: DecodeImageOptions = {},
): Promise<{ png: Buffer; width: number; height: number; density?: number }> {
  const image = await openImage(bytes, options);
  try {
    const { data, info } = await image.png().toBuffer({ resolveWithObject: true });
    const density =
      sniffMediaType(bytes) === 'image/bmp'
        ? undefined
        : (
            await sharp(bytes)
              .metadata()
              .catch(() => undefined)
          )?.density;
    return { png: data, width: info.width, height: info.height, density };
  } catch (error) {
    throw corruptImage(sniffMediaType(bytes) ?? 'image', error);
  }
}

/** Encodes a grayscale image as PNG (fast, low compression: it only travels in memory). */
export function grayToPng(image: GrayImage): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}
