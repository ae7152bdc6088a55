/**
 * The k of time ∝ size^k, by least squares over log(size) and log(time). Linear work gives about
 * 1, work that re-scans what it has read about 2; one noisy point moves a fit over several sizes
 * less than it moves the ratio of two.
 */
export function fitGrowthExponent(points: ReadonlyArray<{ size: number; ms: number }>): number {
  const usable = points.filter((point) => point.size > 0 && point.ms > 0);
  if (usable.length < 2) return Number.NaN;
  const xs = usable.map((point) => Math.log(point.size));
  const ys = usable.map((point) => Math.log(point.ms));
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
  let covariance = 0;
  let variance = 0;
  for (const [index, x] of xs.entries()) {
    covariance += (x - meanX) * (ys[index]! - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance === 0 ? Number.NaN : covariance / variance;
}

/**
 * Sizes in ABBA order (forward, then backward, `rounds` times): whatever drifts during a run
 * (heap growth, load from other processes) falls on every size alike, not on the last one measured.
 */
export function interleavedOrder<T>(sizes: readonly T[], rounds: number): T[] {
  const order: T[] = [];
  for (let round = 0; round < rounds; round += 1) order.push(...(round % 2 === 0 ? sizes : [...sizes].reverse()));
  return order;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
