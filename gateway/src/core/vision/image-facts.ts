import sharp from 'sharp';
import type { MediaDecoder } from '../../media/media-decoder.js';
import type { OcrResult } from '../../providers/contracts/ocr.js';

export interface DominantColour {
  hex: string;
  name: string;
  share: number;
}

export interface ImageFacts {
  width: number;
  height: number;
  format: string;
  colours: DominantColour[];
  text: string;
  words: { text: string; bbox: [number, number, number, number]; confidence: number }[];
}

const NAMED: [string, [number, number, number]][] = [
  ['black', [0, 0, 0]],
  ['white', [255, 255, 255]],
  ['grey', [128, 128, 128]],
  ['light grey', [200, 200, 200]],
  ['dark grey', [64, 64, 64]],
  ['red', [220, 30, 30]],
  ['dark red', [128, 0, 0]],
  ['orange', [255, 140, 0]],
  ['yellow', [240, 220, 40]],
  ['brown', [140, 90, 40]],
  ['green', [40, 160, 60]],
  ['dark green', [0, 90, 30]],
  ['teal', [0, 128, 128]],
  ['cyan', [40, 200, 220]],
  ['blue', [40, 80, 220]],
  ['navy', [20, 30, 110]],
  ['light blue', [150, 190, 240]],
  ['purple', [128, 50, 160]],
  ['pink', [240, 130, 180]],
  ['beige', [225, 210, 180]],
];

function nearestName(rgb: [number, number, number]): string {
  let best = NAMED[0];
  let bestDistance = Infinity;
  for (const entry of NAMED) {
    const distance = (entry[1][0] - rgb[0]) ** 2 + (entry[1][1] - rgb[1]) ** 2 + (entry[1][2] - rgb[2]) ** 2;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = entry;
    }
  }
  return best[0];
}

/** The most common colours: pixels of a 64×64 thumbnail bucketed to 4 bits per channel, buckets averaged. */
export async function dominantColours(png: Buffer, count = 5): Promise<DominantColour[]> {
  const { data, info } = await sharp(png)
    .removeAlpha()
    .resize(64, 64, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const buckets = new Map<number, { n: number; r: number; g: number; b: number }>();
  const pixels = info.width * info.height;
  for (let i = 0; i < pixels; i++) {
    const r = data[i * 3];
    const g = data[i * 3 + 1];
    const b = data[i * 3 + 2];
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    const bucket = buckets.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    bucket.n++;
    bucket.r += r;
    bucket.g += g;
    bucket.b += b;
    buckets.set(key, bucket);
  }
  return [...buckets.values()]
    .sort((a, b) => b.n - a.n)
    .slice(0, count)
    .map((bucket) => {
      const rgb: [number, number, number] = [
        Math.round(bucket.r / bucket.n),
        Math.round(bucket.g / bucket.n),
        Math.round(bucket.b / bucket.n),
      ];
      return {
        hex: `#${rgb.map((value) => value.toString(16).padStart(2, '0')).join('')}`,
        name: nearestName(rgb),
        share: Math.round((bucket.n / pixels) * 1000) / 1000,
      };
    });
}

/** What the local engines can see in an image: size, format, dominant colours, and its recognised text with positions. */
export async function imageFacts(
  media: MediaDecoder,
  bytes: Buffer,
  mimeType: string,
  ocr: OcrResult | undefined,
  signal: AbortSignal,
): Promise<ImageFacts> {
  const decoded = await media.imageToPng(bytes, mimeType, 60_000_000, signal);
  const page = ocr?.pages[0];
  const words = (page?.blocks ?? [])
    .flatMap((block) => block.lines.flatMap((line) => line.words))
    .map((word) => ({ text: word.text, bbox: word.bbox, confidence: word.confidence }));
  return {
    width: decoded.width,
    height: decoded.height,
    format: mimeType.replace('image/', '').toUpperCase(),
    colours: await dominantColours(Buffer.from(decoded.png.buffer, decoded.png.byteOffset, decoded.png.byteLength)),
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
