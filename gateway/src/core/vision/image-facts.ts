import type { DominantColour } from '../../media/image/dominant-colours.js';
import type { MediaDecoder } from '../../media/media-decoder.js';
import type { OcrResult } from '../../providers/contracts/ocr.js';

export interface ImageFacts {
  width: number;
  height: number;
  format: string;
  colours: DominantColour[];
  text: string;
  words: { text: string; bbox: [number, number, number, number]; confidence: number }[];
}

/** What the local engines can see in an image: size, format, dominant colours, and its recognised text with positions. */
export async function imageFacts(
  media: MediaDecoder,
  bytes: Buffer,
  mimeType: string,
  ocr: OcrResult | undefined,
  signal: AbortSignal,
): Promise<ImageFacts> {
  const decoded = await media.imageColours(bytes, mimeType, 60_000_000, signal);
  const page = ocr?.pages[0];
  const words = (page?.blocks ?? [])
    .flatMap((block) => block.lines.flatMap((line) => line.words))
    .map((word) => ({ text: word.text, bbox: word.bbox, confidence: word.confidence }));
  return {
    width: decoded.width,
    height: decoded.height,
    format: mimeType.replace('image/', '').toUpperCase(),
    colours: decoded.colours,
    text: page?.text.trim() ?? '',
    words,
  };
}

/** A plain-language description of the facts, answering the prompt as far as facts allow. */
export function describeFacts(facts: ImageFacts, prompt: string): string {
  const colours = facts.colours
    .map((colour) => `${colour.name} (${colour.hex}, ${Math.round(colour.share * 100)}%)`)
    .join(', ');
  const lines = [
    `A ${facts.width}×${facts.height} pixel ${facts.format} image.`,
    `Dominant colours: ${colours}.`,
    facts.text
      ? `It contains ${facts.words.length} recognised word(s): "${facts.text.replace(/\s+/g, ' ').slice(0, 2000)}".`
      : 'No text was recognised in it.',
  ];
  const wantsText = /\b(text|say|says|read|written|words?|title|caption|label)\b/i.test(prompt);
  if (wantsText && facts.words.length > 0) {
    const first = facts.words[0];
    lines.push(`The text starts at (${first.bbox[0]}, ${first.bbox[1]}) with "${first.text}".`);
  }
  lines.push(
    'This analysis comes from the local engines (image statistics and OCR); configure a vision-language model route for a semantic description.',
  );
  return lines.join(' ');
}
