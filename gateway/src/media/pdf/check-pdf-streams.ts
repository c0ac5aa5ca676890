import { constants, inflateSync } from 'node:zlib';
import { MediaError } from '../media-error.js';

export interface PdfStreamLimits {
  /** Most pixels (width × height, from the image's dictionary) of one image drawn in the PDF. */
  maxImagePixels: number;
  /** Most bytes one stream (a page's content, a form, a font) may inflate to. */
  maxStreamBytes: number;
  /** Most operators in one content stream. */
  maxOperators: number;
}

/** How far before `stream` its dictionary is looked for (a stream dictionary is a few hundred bytes). */
const DICTIONARY_WINDOW = 16_384;

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const regular = (byte: number): boolean => !WHITESPACE.has(byte) && !DELIMITERS.has(byte);
const startsNumber = (byte: number): boolean =>
  (byte >= 0x30 && byte <= 0x39) || byte === 0x2b || byte === 0x2d || byte === 0x2e;

/** Operators in a content stream, counted up to `cap`: a one-pass tokeniser that skips strings, names, numbers and inline image data. */
export function countOperators(data: Uint8Array, cap: number): number {
  let count = 0;
  let i = 0;
  const n = data.length;
  while (i < n && count <= cap) {
    const c = data[i];
    if (c === 0x28) {
      let depth = 1;
      i++;
      while (i < n && depth > 0) {
        const d = data[i];
        if (d === 0x5c) i += 2;
        else {
          if (d === 0x28) depth++;
          else if (d === 0x29) depth--;
          i++;
        }
      }
    } else if (c === 0x3c && data[i + 1] !== 0x3c) {
      const close = data.indexOf(0x3e, i);
      i = close < 0 ? n : close + 1;
    } else if (c === 0x25) {
      while (i < n && data[i] !== 0x0a && data[i] !== 0x0d) i++;
    } else if (c === 0x2f || startsNumber(c)) {
      i++;
      while (i < n && regular(data[i])) i++;
    } else if (regular(c)) {
      const start = i;
      while (i < n && regular(data[i])) i++;
      count++;
      // Inline image data runs from ID to EI and is not tokens.
      if (i - start === 2 && data[start] === 0x49 && data[start + 1] === 0x44) {
        let end = i;
        while (
          end < n &&
          !(
            data[end] === 0x45 &&
            data[end + 1] === 0x49 &&
            WHITESPACE.has(data[end - 1]) &&
            (end + 2 >= n || !regular(data[end + 2]))
          )
        )
          end++;
        i = end + 2;
      }
    } else i++;
  }
  return count;
}

const named = (dictionary: string, key: string): string | undefined =>
  new RegExp(`/${key}\\s*/(\\w+)`).exec(dictionary)?.[1];
const integer = (dictionary: string, key: string): number =>
  Number(new RegExp(`/${key}\\s+(\\d{1,12})\\b`).exec(dictionary)?.[1] ?? 0);

/**
 * A stream whose bytes are PDF operators: a page's contents, a form, a pattern or a glyph (not an
 * image, font, ICC profile, object stream, or the binary data of a mesh shading or a function).
 */
function holdsOperators(dictionary: string): boolean {
  const subtype = named(dictionary, 'Subtype');
  const type = named(dictionary, 'Type');
  return (
    (subtype === undefined || subtype === 'Form') &&
    (type === undefined || type === 'XObject' || type === 'Pattern') &&
    !/\/Length[123]\b|\/N\s+\d|\/ShadingType|\/FunctionType/.test(dictionary)
  );
}

/** Only a stream with no filter or FlateDecode alone is measured; other filters are left to the reader's own limits. */
function filterOf(dictionary: string): 'none' | 'flate' | 'other' {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dictionary)?.[1];
  if (filter === undefined) return 'none';
  const names = filter.match(/\/\w+/g) ?? [];
  return names.length === 1 && (names[0] === '/FlateDecode' || names[0] === '/Fl') ? 'flate' : 'other';
}

/**
 * Checks a PDF's streams against the limits from what they declare and what they inflate to, before
 * pdf.js reads them: an image's declared size, a stream inflating past `maxStreamBytes` (a deflate
 * bomb: 1 MB that inflates to 1 GiB), a content stream of more than `maxOperators` operators (200,000
 * text-show operators in 25 KB once overflowed pdf.js' stack). Inflation stops at the limit.
 */
export function checkPdfStreams(bytes: Uint8Array, limits: PdfStreamLimits): void {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while ((at = pdf.indexOf('stream', at, 'latin1')) !== -1) {
    const keyword = at;
    at += 6;
    if (keyword >= 3 && pdf.toString('latin1', keyword - 3, keyword) === 'end') continue;
    let start = at;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] === 0x0a) start++;
    if (start === at) continue;
    const objectAt = pdf.lastIndexOf('obj', keyword, 'latin1');
    const dictionary = pdf.toString('latin1', Math.max(objectAt, keyword - DICTIONARY_WINDOW, 0), keyword);
    const endAt = pdf.indexOf('endstream', start, 'latin1');
    const end = endAt < 0 ? pdf.length : endAt;
    at = end;
    if (named(dictionary, 'Subtype') === 'Image') {
      const width = integer(dictionary, 'Width');
      const height = integer(dictionary, 'Height');
      if (width * height > limits.maxImagePixels) {
        throw new MediaError(
          'too_large',
          `The PDF holds a ${width}×${height} image (${((width * height) / 1e6).toFixed(1)} megapixels), over the max_pixels limit of ${(limits.maxImagePixels / 1e6).toFixed(1)} megapixels. Send the document with smaller images or raise max_pixels.`,
          { code: 'image_too_large', param: 'max_pixels' },
        );
      }
      continue;
    }
    const filter = filterOf(dictionary);
    if (filter === 'other') continue;
    let data: Uint8Array = pdf.subarray(start, end);
    if (filter === 'flate') {
      try {
        data = inflateSync(data, { maxOutputLength: limits.maxStreamBytes, finishFlush: constants.Z_SYNC_FLUSH });
      } catch (error) {
        if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') continue;
        throw new MediaError(
          'too_large',
          `A stream in the PDF inflates to more than ${Math.round(limits.maxStreamBytes / 2 ** 20)} MiB, the most one stream may hold (a decompression bomb, or a page far larger than a document needs).`,
          { code: 'pdf_stream_too_large', param: 'document' },
        );
      }
    }
    if (holdsOperators(dictionary) && countOperators(data, limits.maxOperators) > limits.maxOperators) {
      throw new MediaError(
        'too_large',
        `A page of the PDF draws with more than ${limits.maxOperators.toLocaleString('en')} operators in one content stream, the most a page may use. Simplify or split the page (for example by printing it to a new PDF).`,
        { code: 'pdf_page_too_complex', param: 'document' },
      );
    }
  }
}
