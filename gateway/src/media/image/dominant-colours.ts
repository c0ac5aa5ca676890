import sharp from 'sharp';

export interface DominantColour {
  hex: string;
  name: string;
  share: number;
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
