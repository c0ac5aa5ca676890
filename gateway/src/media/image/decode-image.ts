import sharp, { type Metadata, type Sharp } from 'sharp';
import { MediaError } from '../media-error.js';
import { decodeBmp } from './decode-bmp.js';
import { sniffMediaType } from '../sniff-media-type.js';

import type { BoxCoordinates, GrayImage } from '../../ocr-layout/ocr-page.js';

export type { GrayImage };

export interface DecodeImageOptions {
  /** Largest accepted width × height; larger images throw `too_large`. */
  maxPixels?: number;
  /** The media type the caller detected (see sniffMediaType); detected here when absent. */
  mediaType?: string;
}

const NOT_AN_IMAGE =
  'The document is not a supported image: its bytes match no PNG, JPEG, WebP, TIFF, BMP, GIF or PDF signature.';

/** The image's media type (the caller's, or detected from its bytes); refuses an empty document and a PDF. */
function imageMediaType(bytes: Buffer, declared: string | undefined): string {
  if (bytes.length === 0) {
    throw new MediaError(
      'invalid_document',
      'The document is empty (0 bytes). Send a PNG, JPEG, WebP, TIFF, BMP, GIF or PDF file.',
      { code: 'empty_document' },
    );
  }
  const mimeType = declared ?? sniffMediaType(bytes);
  if (mimeType === null || mimeType === 'application/pdf') {
    throw new MediaError(
      'invalid_document',
      mimeType === null ? NOT_AN_IMAGE : 'A PDF cannot be decoded as an image; open it as a PDF.',
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

interface OpenedImage {
  image: Sharp;
  mimeType: string;
  /** Pixels per inch the image names, if any. */
  density?: number;
}

/** A sharp pipeline over any supported image; BMP goes through our own decoder. Orientation from EXIF is applied. */
async function openImage(bytes: Buffer, options: DecodeImageOptions): Promise<OpenedImage> {
  const mimeType = imageMediaType(bytes, options.mediaType);
  if (mimeType === 'image/bmp') {
    const bmp = decodeBmp(bytes, (width, height) => assertPixelLimit(width, height, options.maxPixels));
    return { image: sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: 4 } }), mimeType };
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch (error) {
    // The caller's media type said image; sharp found no format it reads in the bytes.
    if (/unsupported image format/i.test((error as Error).message))
      throw new MediaError('invalid_document', NOT_AN_IMAGE, { code: 'unsupported_media_type' });
    throw corruptImage(mimeType, error);
  }
  assertPixelLimit(metadata.width ?? 0, metadata.height ?? 0, options.maxPixels);
  return {
    image: sharp(bytes, { failOn: 'error', limitInputPixels: false }).autoOrient(),
    mimeType,
    density: metadata.density,
  };
}

/** Decodes any supported image (first frame/page) to 8-bit grayscale, transparent areas on white, with the density it names. */
export async function decodeGray(
  bytes: Buffer,
  options: DecodeImageOptions = {},
): Promise<GrayImage & { density?: number }> {
  const { image, mimeType, density } = await openImage(bytes, options);
  try {
    const { data, info } = await image
      .flatten({ background: '#ffffff' })
      .grayscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels === 1) return { data, width: info.width, height: info.height, density };
    const gray = new Uint8Array(info.width * info.height);
    for (let i = 0; i < gray.length; i++) gray[i] = data[i * info.channels];
    return { data: gray, width: info.width, height: info.height, density };
  } catch (error) {
    throw corruptImage(mimeType, error);
  }
}

/** Decodes any supported image (first frame/page) to a PNG (for engines that read only PNG), with its size and the density it names. */
export async function decodeToPng(
  bytes: Buffer,
  options: DecodeImageOptions = {},
): Promise<{ png: Buffer; width: number; height: number; density?: number }> {
  const { image, mimeType, density } = await openImage(bytes, options);
  try {
    const { data, info } = await image.png().toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height, density };
  } catch (error) {
    throw corruptImage(mimeType, error);
  }
}

/** A gray page image as sharp reads raw pixels. */
const grayPixels = (image: GrayImage): Sharp =>
  sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } });

/** An image decoded once, in its colours, as a maker of sharp pipelines over its pixels. */
async function decodedPixels(bytes: Buffer, mediaType: string): Promise<() => Sharp> {
  const { image, mimeType } = await openImage(bytes, { mediaType });
  try {
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    return () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  } catch (error) {
    throw corruptImage(mimeType, error);
  }
}

/** `boxes` cut out of an image (any supported image, in its colours; or a gray page image) as JPEGs on white, quality 85. */
export async function cropJpegs(
  source: { bytes: Buffer; mediaType: string } | { gray: GrayImage },
  boxes: BoxCoordinates[],
): Promise<Buffer[]> {
  const pixels = 'gray' in source ? () => grayPixels(source.gray) : await decodedPixels(source.bytes, source.mediaType);
  return Promise.all(
    boxes.map((box) =>
      pixels()
        .extract({ left: box[0], top: box[1], width: box[2] - box[0], height: box[3] - box[1] })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 85 })
        .toBuffer(),
    ),
  );
}

/** Encodes a grayscale image as PNG (fast, low compression: it only travels in memory). */
export function grayToPng(image: GrayImage): Promise<Buffer> {
  return grayPixels(image).png({ compressionLevel: 1 }).toBuffer();
}
