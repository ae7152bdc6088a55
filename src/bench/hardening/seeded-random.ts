/** A seeded pseudo-random source, so a fuzzing run can be repeated exactly from its seed. */
export interface SeededRandom {
  /** An integer in [0, below). */
  below(below: number): number;
  /** A float in [0, 1). */
  fraction(): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: tiny, fast, and good enough to spread fuzz cases (not for anything secret). */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const fraction = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
  const below = (limit: number): number => Math.floor(fraction() * limit);
  return { below, fraction, pick: (items) => items[below(items.length)]! };
}
