import { createUniformSource } from "../../providers/llama/gguf/encode-random-weights.js";

/** A seeded pseudo-random source, so a fuzzing run can be repeated exactly from its seed. */
export interface SeededRandom {
  /** An integer in [0, below). */
  below(below: number): number;
  /** A float in [0, 1). */
  fraction(): number;
  pick<T>(items: readonly T[]): T;
}

export function createSeededRandom(seed: number): SeededRandom {
  const fraction = createUniformSource(seed);
  const below = (limit: number): number => Math.floor(fraction() * limit);
  return { below, fraction, pick: (items) => items[below(items.length)]! };
}
