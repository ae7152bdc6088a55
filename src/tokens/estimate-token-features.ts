/**
 * The text features the token estimator weighs. Splitting follows the pre-tokenization that BPE
 * tokenizers of the GPT-4o / Qwen / Llama-3 family share (a word with its leading space is one
 * piece, digits, punctuation runs and newline runs are separate pieces), because the cost of text
 * is decided piece by piece: a common English word is one token whatever its length, a Chinese
 * character about 0.7–1 token, a digit 1/3 or 1 token depending on the tokenizer.
 */
export interface TokenFeatures {
  /** Runs of whitespace that contain a line break. */
  newlineRuns: number;
  /** Han ideographs (Chinese, Japanese kanji). */
  hanChars: number;
  /** Hiragana and katakana. */
  kanaChars: number;
  hangulChars: number;
  /** Letters of other scripts (Cyrillic, Greek, Arabic, Devanagari, ...). */
  otherLetterChars: number;
  /** Latin-script words by length (without their leading space). */
  shortWords: number;
  mediumWords: number;
  longWords: number;
  /** Letters beyond the eighth in long words. */
  longWordExtraChars: number;
  /** Letters beyond the 24th: no longer a word but a blob (base64, repeated characters). */
  blobChars: number;
  digitChars: number;
  /** Σ ceil(run length / 3): what tokenizers that group digits by three spend on numbers. */
  digitTriples: number;
  punctuationRuns: number;
  asciiPunctuationChars: number;
  /** Full-width CJK punctuation, emoji and other non-ASCII symbols. */
  otherSymbolChars: number;
  /** Runs of spaces and tabs that do not belong to a word (indentation, alignment). */
  spaceRuns: number;
  spaceChars: number;
}

export const TOKEN_FEATURE_NAMES = [
  "newlineRuns",
  "hanChars",
  "kanaChars",
  "hangulChars",
  "otherLetterChars",
  "shortWords",
  "mediumWords",
  "longWords",
  "longWordExtraChars",
  "blobChars",
  "digitChars",
  "digitTriples",
  "punctuationRuns",
  "asciiPunctuationChars",
  "otherSymbolChars",
  "spaceRuns",
  "spaceChars",
] as const satisfies readonly (keyof TokenFeatures)[];

const PIECE = new RegExp(
  [
    String.raw`(\s*[\r\n]+)`, // 1 newline run
    String.raw`( ?[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC]+)`, // 2 CJK
    String.raw`( ?[A-Za-z\u00C0-\u024F\u1E00-\u1EFF]+)`, // 3 Latin word
    String.raw`(\p{N}+)`, // 4 digits
    String.raw`( ?[\p{L}\p{M}]+)`, // 5 other scripts
    String.raw`( ?[^\s\p{L}\p{N}]+)`, // 6 punctuation and symbols
    String.raw`([^\S\r\n]+(?!\S)|[^\S\r\n]+)`, // 7 spaces
  ].join("|"),
  "gu",
);
/**
 * General punctuation (dashes, quotes, "…", "‰", "※"; not its spaces), arrows, box drawing: with
 * ASCII, the characters of plain text. None is a letter, digit, mark or space, so in plain text
 * PIECE's letters are [A-Za-z], its digits [0-9], its spaces ASCII's, and every other character is
 * punctuation (its 6th group). extractPlainTokenFeatures splits such text as PIECE does, by
 * character codes: no regular expression to build (V8 builds PIECE's Unicode tables when it first
 * runs) and no match to allocate per piece. The system prompt and the tools of a CLI run's first
 * request are counted before it is sent (the "…" and "—" in them are plain).
 */
export const PLAIN_SYMBOLS = "\u2010-\u2027\u2030-\u205E\u2190-\u21FF\u2500-\u257F";
const NOT_PLAIN = new RegExp(`[^\\x00-\\x7F${PLAIN_SYMBOLS}]`);
const HAN = /\p{Script=Han}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u;
const ASCII_PUNCTUATION = /^[\x21-\x7E]$/;

export function emptyTokenFeatures(): TokenFeatures {
  return Object.fromEntries(TOKEN_FEATURE_NAMES.map((name) => [name, 0])) as unknown as TokenFeatures;
}

export function extractTokenFeatures(text: string): TokenFeatures {
  return NOT_PLAIN.test(text) ? extractUnicodeTokenFeatures(text) : extractPlainTokenFeatures(text);
}

/** extractTokenFeatures for plain text (the same features, see PLAIN_SYMBOLS). */
export function extractPlainTokenFeatures(text: string): TokenFeatures {
  const features = emptyTokenFeatures();
  const length = text.length;
  let index = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (isPlainSpace(code)) {
      let end = index;
      let lastNewline = -1;
      for (; end < length && isPlainSpace(text.charCodeAt(end)); end += 1) if (isNewline(text.charCodeAt(end))) lastNewline = end;
      if (lastNewline >= 0) {
        // \s*[\r\n]+: the run up to its last line break; the spaces after it start the next piece.
        features.newlineRuns += 1;
        index = lastNewline + 1;
        continue;
      }
      const next = end < length ? text.charCodeAt(end) : -1;
      if (code === 32 && end === index + 1 && isPlainLetter(next)) {
        index = scanWord(text, index + 1, features);
        continue;
      }
      if (code === 32 && end === index + 1 && next >= 0 && isPlainPunctuation(next)) {
        index = scanPunctuation(text, index + 1, features);
        continue;
      }
      // [^\S\r\n]+(?!\S): a run of two or more before a word or a symbol leaves its last space to it.
      const runEnd = end < length && end - index >= 2 ? end - 1 : end;
      features.spaceRuns += 1;
      features.spaceChars += runEnd - index;
      index = runEnd;
    } else if (isPlainLetter(code)) {
      index = scanWord(text, index, features);
    } else if (isPlainDigit(code)) {
      let end = index + 1;
      while (end < length && isPlainDigit(text.charCodeAt(end))) end += 1;
      features.digitChars += end - index;
      features.digitTriples += Math.ceil((end - index) / 3);
      index = end;
    } else {
      index = scanPunctuation(text, index, features);
    }
  }
  return features;
}

/** The Latin word starting at `start` (after its leading space, if any); returns where it ends. */
function scanWord(text: string, start: number, features: TokenFeatures): number {
  let end = start + 1;
  while (end < text.length && isPlainLetter(text.charCodeAt(end))) end += 1;
  countWord(end - start, features);
  return end;
}

/** The punctuation run starting at `start` (after its leading space, if any); returns where it ends. */
function scanPunctuation(text: string, start: number, features: TokenFeatures): number {
  features.punctuationRuns += 1;
  let end = start;
  for (; end < text.length; end += 1) {
    const code = text.charCodeAt(end);
    if (!isPlainPunctuation(code)) break;
    if (code >= 0x21 && code <= 0x7e) features.asciiPunctuationChars += 1;
    else features.otherSymbolChars += 1;
  }
  return end;
}

/** JavaScript's \s within plain text: no plain symbol is a space. */
const isPlainSpace = (code: number): boolean => code === 32 || (code >= 9 && code <= 13);
const isNewline = (code: number): boolean => code === 10 || code === 13;
const isPlainLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isPlainDigit = (code: number): boolean => code >= 48 && code <= 57;
const isPlainPunctuation = (code: number): boolean => !isPlainSpace(code) && !isPlainLetter(code) && !isPlainDigit(code);

/** extractTokenFeatures for any text. */
export function extractUnicodeTokenFeatures(text: string): TokenFeatures {
  const features = emptyTokenFeatures();
  for (const match of text.matchAll(PIECE)) {
    const [piece, newline, cjk, word, digits, otherLetters, punctuation] = match;
    if (newline !== undefined) features.newlineRuns += 1;
    else if (cjk !== undefined) countCjk(cjk, features);
    else if (word !== undefined) countWord(word.startsWith(" ") ? word.length - 1 : word.length, features);
    else if (digits !== undefined) {
      features.digitChars += digits.length;
      features.digitTriples += Math.ceil(digits.length / 3);
    } else if (otherLetters !== undefined) features.otherLetterChars += [...otherLetters.trimStart()].length;
    else if (punctuation !== undefined) countPunctuation(punctuation, features);
    else {
      features.spaceRuns += 1;
      features.spaceChars += piece.length;
    }
  }
  return features;
}

function countCjk(run: string, features: TokenFeatures): void {
  for (const character of run.startsWith(" ") ? run.slice(1) : run) {
    if (HAN.test(character)) features.hanChars += 1;
    else if (KANA.test(character)) features.kanaChars += 1;
    else features.hangulChars += 1;
  }
}

function countWord(length: number, features: TokenFeatures): void {
  if (length <= 4) features.shortWords += 1;
  else if (length <= 8) features.mediumWords += 1;
  else {
    features.longWords += 1;
    features.longWordExtraChars += length - 8;
    features.blobChars += Math.max(0, length - 24);
  }
}

function countPunctuation(run: string, features: TokenFeatures): void {
  features.punctuationRuns += 1;
  for (const character of run.startsWith(" ") ? run.slice(1) : run) {
    if (ASCII_PUNCTUATION.test(character)) features.asciiPunctuationChars += 1;
    else features.otherSymbolChars += 1;
  }
}
