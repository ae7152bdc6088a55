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

/**
 * extractPlainTokenFeatures before it scanned character codes (11894f2 replaced this regular
 * expression): the reference the scanner must equal on any text, long runs included.
 */
function regexPlainTokenFeatures(text: string): ReturnType<typeof extractPlainTokenFeatures> {
  const features = extractPlainTokenFeatures("");
  for (const [piece, newline, word, digits, punctuation] of text.matchAll(/(\s*[\r\n]+)|( ?[A-Za-z]+)|([0-9]+)|( ?[^\sA-Za-z0-9]+)|([^\S\r\n]+(?!\S)|[^\S\r\n]+)/g)) {
    if (newline !== undefined) features.newlineRuns += 1;
    // A word alone is one scanner piece: its counts are countWord's, as the expression's were.
    else if (word !== undefined) {
      const plain = extractPlainTokenFeatures(word.trimStart());
      for (const key of Object.keys(plain) as Array<keyof typeof plain>) features[key] += plain[key];
    } else if (digits !== undefined) {
      features.digitChars += digits.length;
      features.digitTriples += Math.ceil(digits.length / 3);
    } else if (punctuation !== undefined) {
      features.punctuationRuns += 1;
      for (const character of punctuation.startsWith(" ") ? punctuation.slice(1) : punctuation) {
        if (/^[\x21-\x7E]$/.test(character)) features.asciiPunctuationChars += 1;
        else features.otherSymbolChars += 1;
      }
    } else {
      features.spaceRuns += 1;
      features.spaceChars += piece.length;
    }
  }
  return features;
}

describe("extractTokenFeatures against the regular expression it replaced", () => {
  it("counts the same on long runs of spaces, line breaks and punctuation, and on text that is not plain", () => {
    const runs = [" ", "  ", "\t", "\n", " \n", "\r\n", "\n \n ", "-", "…", "—", ".", " .", "=-", "\u2500", "\x00", "\x7f"];
    const texts = runs.flatMap((run) => [run.repeat(5000), `word${run.repeat(3000)}word`, `${run.repeat(2000)}1234567${run.repeat(2000)}`, ` ${run.repeat(999)} a`]);
    const random = randomSource(28);
    for (let index = 0; index < 200; index += 1) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 12) }, () => runs[Math.floor(random() * runs.length)]!.repeat(1 + Math.floor(random() * 300)));
      texts.push(parts.join(random() < 0.5 ? "" : "word"));
    }
    for (const text of texts) expect(extractPlainTokenFeatures(text), JSON.stringify(text.slice(0, 40))).toEqual(regexPlainTokenFeatures(text));
    // Text that is not plain (CJK, emoji with skin tones and joiners, lone surrogates, combining marks,
    // Hangul, Arabic, no-break and wide spaces) never reaches the scanner: the Unicode pieces count it, as before.
    for (const text of ["中文 text 汉字…", "👍🏽 👨‍👩‍👧 ok", "a\ud800b \udc00", "e\u0301 naïve", "한국어 텍스트", "مرحبا بالعالم", "a\u00a0\u3000b", `${"—".repeat(100)}é`]) {
      expect(extractTokenFeatures(text)).toEqual(extractUnicodeTokenFeatures(text));
    }
  });
});
