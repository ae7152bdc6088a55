/** The Wilson score interval of a success rate (95% by default): sound for small n and for 0 or n successes. */
export function wilsonInterval(successes: number, trials: number, z = 1.959964): [number, number] {
  if (trials === 0) return [0, 1];
  const rate = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (rate + (z * z) / (2 * trials)) / denominator;
  const margin = (z * Math.sqrt((rate * (1 - rate)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return [Math.max(0, centre - margin), Math.min(1, centre + margin)];
}
