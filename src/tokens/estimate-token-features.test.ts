import { describe, expect, it } from "vitest";
import { extractPlainTokenFeatures, extractTokenFeatures, extractUnicodeTokenFeatures, PLAIN_SYMBOLS } from "./estimate-token-features.js";
import { chineseSample, codeSample, englishSample, toolResultSample } from "./test-support/sample-texts.js";

/** A seeded generator (mulberry32): the same strings on every run. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every character of PLAIN_SYMBOLS (ranges of the form "a-b"). */
const plainSymbols = [...PLAIN_SYMBOLS.matchAll(/(.)-(.)/gu)].flatMap(([, from, to]) => Array.from({ length: to!.codePointAt(0)! - from!.codePointAt(0)! + 1 }, (_, index) => String.fromCodePoint(from!.codePointAt(0)! + index)));

/** Plain text with every kind of piece: words, digits, punctuation and symbols, runs of spaces, tabs, line breaks, control characters. */
function randomPlain(random: () => number, length: number): string {
  const kinds = ["abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", plainSymbols.join(""), "    ", "\t\v\f", "\r\n\n", "\x00\x01\x1b\x1c\x1f\x7f"];
  let text = "";
  while (text.length < length) {
    const kind = kinds[Math.floor(random() * kinds.length)]!;
    const run = 1 + Math.floor(random() * 12);
    for (let index = 0; index < run; index += 1) text += kind[Math.floor(random() * kind.length)];
  }
  return text;
}

describe("extractTokenFeatures on plain text (ASCII, common punctuation and symbols)", () => {
  it("counts the same features as the Unicode pieces do", () => {
    const random = randomSource(30);
    const texts = [englishSample, codeSample, toolResultSample, ...Array.from({ length: 400 }, () => randomPlain(random, 1 + Math.floor(random() * 400)))];
    for (const text of texts) {
      expect(extractPlainTokenFeatures(text)).toEqual(extractUnicodeTokenFeatures(text));
      expect(extractTokenFeatures(text)).toEqual(extractUnicodeTokenFeatures(text));
    }
  });

  it("splits each plain symbol as the Unicode pieces do, next to words, digits and spaces", () => {
    expect(plainSymbols.length).toBeGreaterThan(300);
    for (const symbol of plainSymbols) {
      const text = `a${symbol}b ${symbol}${symbol} 1${symbol}2\n${symbol} ${symbol}`;
      expect(extractPlainTokenFeatures(text), `U+${symbol.codePointAt(0)!.toString(16)}`).toEqual(extractUnicodeTokenFeatures(text));
    }
  });

  it("takes the Unicode pieces as soon as one character is not plain", () => {
    for (const text of [chineseSample, `${englishSample}é`, "naïve", "price: 5 €", "2 × 3", "a\u00a0b", "a\u2003b"]) {
      expect(extractTokenFeatures(text)).toEqual(extractUnicodeTokenFeatures(text));
    }
    expect(extractTokenFeatures("中文").hanChars).toBe(2);
  });
});
