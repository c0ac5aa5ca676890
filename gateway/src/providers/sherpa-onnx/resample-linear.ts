/**
 * Resamples mono audio by linear interpolation. When downsampling, a moving average over one
 * source period first removes most of what would alias; plenty for speech recognition input.
 */
export function resampleLinear(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate || samples.length === 0) return samples;
  const ratio = fromRate / toRate;
  const source = ratio > 1 ? movingAverage(samples, Math.ceil(ratio)) : samples;
  const length = Math.max(1, Math.round(samples.length / ratio));
  const out = new Float32Array(length);
  const last = source.length - 1;
  for (let i = 0; i < length; i++) {
    const position = i * ratio;
    const left = Math.min(Math.floor(position), last);
    const right = Math.min(left + 1, last);
    const fraction = position - left;
    out[i] = source[left] + (source[right] - source[left]) * fraction;
  }
  return out;
}

function movingAverage(samples: Float32Array, width: number): Float32Array {
  if (width <= 1) return samples;
  const out = new Float32Array(samples.length);
  const half = Math.floor(width / 2);
  let sum = 0;
  let count = 0;
  // Sliding window [i - half, i - half + width).
  for (let j = 0; j < Math.min(width - half, samples.length); j++) {
    sum += samples[j];
    count++;
  }
  for (let i = 0; i < samples.length; i++) {
    out[i] = sum / count;
    const leaving = i - half;
    const entering = i - half + width;
    if (leaving >= 0) {
      sum -= samples[leaving];
      count--;
    }
    if (entering < samples.length) {
      sum += samples[entering];
      count++;
    }
  }
  return out;
}
