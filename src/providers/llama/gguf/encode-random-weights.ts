/**
 * Deterministic pseudo-random weights: a seeded generator (mulberry32) and an approximately normal
 * distribution (the sum of four uniforms), encoded as ggml stores them.
 */
export function createRandomSource(seed: number): () => number {
  const uniform = createUniformSource(seed);
  // Sum of four uniforms minus 2 has variance 1/3; scale to unit variance.
  return () => (uniform() + uniform() + uniform() + uniform() - 2) * Math.sqrt(3);
}

/** mulberry32: uniform floats in [0, 1) from a 32-bit seed; tiny and fast, not for anything secret. */
export function createUniformSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

export function encodeFloat32(count: number, valueAt: (index: number) => number): Uint8Array {
  const values = new Float32Array(count);
  for (let index = 0; index < count; index += 1) values[index] = valueAt(index);
  return new Uint8Array(values.buffer);
}

export function encodeFloat16(count: number, valueAt: (index: number) => number): Uint8Array {
  const values = new Uint16Array(count);
  for (let index = 0; index < count; index += 1) values[index] = toFloat16Bits(valueAt(index));
  return new Uint8Array(values.buffer);
}

const float32View = new Float32Array(1);
const bitsView = new Uint32Array(float32View.buffer);

/** IEEE 754 half precision, rounded to nearest; subnormals flush to zero (weights never need them). */
export function toFloat16Bits(value: number): number {
  float32View[0] = value;
  const bits = bitsView[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  const mantissa = bits & 0x7fffff;
  if (exponent <= 0) return sign;
  if (exponent >= 31) return sign | 0x7c00;
  const rounded = (exponent << 10) + ((mantissa + 0x1000) >>> 13);
  return sign | Math.min(rounded, 0x7bff);
}
