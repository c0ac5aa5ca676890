export interface SkewMeasure {
  /** Degrees; positive: lines run down to the right, as after a clockwise rotation. */
  angle: number;
  /**
   * How much sharper the profile is at `angle` than level (its sum of squares over the one at 0°): about
   * 1 when the angle is noise (grain, a photo), well above it when text lines come into line.
   */
  sharpness: number;
  /**
   * How uneven the profile is at `angle`: rows times its sum of squares over its sum squared. Ink spread
   * evenly (grain) measures about 1; text lines with blank rows between them several times that.
   */
  lineContrast: number;
}

/**
 * Estimates the skew of text lines in degrees (positive: lines run down to the right, as after a
 * clockwise rotation) by the projection-profile method: the angle at which projecting ink pixels onto
 * the vertical axis gives the sharpest histogram (text lines and gaps are crisp).
 */
export function estimateSkew(binary: Uint8Array, width: number, height: number, maxAngle = 6): number {
  return measureSkew(binary, width, height, maxAngle).angle;
}

/** The skew as estimateSkew finds it, with how clearly the profile shows it. */
export function measureSkew(binary: Uint8Array, width: number, height: number, maxAngle = 6): SkewMeasure {
  let inkCount = 0;
  for (let i = 0; i < binary.length; i++) inkCount += binary[i];
  if (inkCount < 50) return { angle: 0, sharpness: 1, lineContrast: 1 };
  // Only the pixels that sit on top of a white pixel: enough signal, a fraction of the work.
  const budget = 60_000;
  const step = Math.max(1, Math.round(inkCount / budget));
  const room = Math.ceil(inkCount / step) + 1;
  const xAt = new Float64Array(room);
  const yAt = new Float64Array(room);
  let taken = 0;
  let seen = 0;
  for (let y = 1; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (binary[i] && !binary[i + width]) {
        if (seen++ % step === 0) {
          xAt[taken] = x;
          yAt[taken++] = y;
        }
      }
    }
  }
  const xs = xAt.subarray(0, taken);
  const ys = yAt.subarray(0, taken);
  const bins = new Float64Array(height + width + 2);
  const score = (degrees: number): number => {
    const radians = (degrees * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    bins.fill(0);
    for (let k = 0; k < xs.length; k++) bins[Math.round(ys[k] * cos - xs[k] * sin + width)]++;
    let sum = 0;
    for (let b = 0; b < bins.length; b++) sum += bins[b] * bins[b];
    return sum;
  };
  const search = (from: number, to: number, stepDegrees: number): number => {
    let best = 0;
    let bestScore = -1;
    for (let a = from; a <= to + 1e-9; a += stepDegrees) {
      const s = score(a);
      if (s > bestScore) {
        bestScore = s;
        best = a;
      }
    }
    return best;
  };
  const coarse = search(-maxAngle, maxAngle, 0.5);
  const fine = search(coarse - 0.5, coarse + 0.5, 0.1);
  const angle = search(fine - 0.1, fine + 0.1, 0.025);
  const level = score(0);
  const best = score(angle);
  return { angle, sharpness: level > 0 ? best / level : 1, lineContrast: (best * height) / xs.length ** 2 };
}
