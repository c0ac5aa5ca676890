/** Horizontal grid lines above the axis. */
export const TICKS = 4;

/** A round upper bound for the axis (1, 2 or 5 times a power of ten) so tick labels read well. */
export function niceMax(max: number, integer = false): number {
  if (max <= 0) return integer ? TICKS : 1;
  const step = integer ? Math.max(1, max / TICKS) : max / TICKS;
  const power = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 5, 10].find((m) => m * power >= step) ?? 10;
  return nice * power * TICKS;
}
