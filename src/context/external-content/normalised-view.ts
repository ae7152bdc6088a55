import { createLazyRequire } from "../../types/lazy-require.js";

// unhomoglyph (a large confusables table) is loaded by the first non-ASCII character folded, not when the CLI starts.
const requireFromHere = createLazyRequire(import.meta.url);
let unhomoglyph: ((text: string) => string) | undefined;

/**
 * Text as a lenient reader sees it, with every character mapped back to the span of the original it
 * came from. The marker grammar runs on this view, so a marker written in any disguise a model might
 * still read as the marker — an HTML entity, a percent or backslash escape, a full-width or
 * homoglyph letter, zero-width or combining characters in between, other case — is found, and its
 * span in the original is known exactly (to neutralise it there).
 */
export interface NormalisedView {
  text: string;
  /** For character i of `text`: the original span [start[i], end[i]) it was read from. */
  start: number[];
  end: number[];
}

// Characters that render as nothing (or as a mark on the previous character): a reader skips them.
const ignorable = /^(?:\p{Default_Ignorable_Code_Point}|\p{M}|\p{Cf})$/u;

const namedEntities: Record<string, string> = {
  lt: "<", gt: ">", sol: "/", lowbar: "_", verbar: "|", vert: "|", vbar: "|", lsqb: "[", rsqb: "]", lbrack: "[", rbrack: "]",
  quot: '"', apos: "'", equals: "=", num: "#", excl: "!", period: ".", hyphen: "-", dash: "-", nbsp: " ", colon: ":", amp: "&",
  lang: "<", rang: ">", langle: "<", rangle: ">", lsaquo: "<", rsaquo: ">", bsol: "\\", sp: " ", ensp: " ", emsp: " ", thinsp: " ",
};

// Look-alikes NFKC leaves alone: angle brackets, slashes, bars and the Cyrillic/Greek letters that
// look Latin (the usual homoglyph substitutions in spoofed tags).
const confusables: Record<string, string> = {
  "‹": "<", "›": ">", "〈": "<", "〉": ">", "⟨": "<", "⟩": ">", "˂": "<", "˃": ">", "ᐸ": "<", "ᐳ": ">",
  "❮": "<", "❯": ">", "❰": "<", "❱": ">", "⟪": "<", "⟫": ">", "《": "<", "》": ">", "〔": "[", "〕": "]", "⧼": "<", "⧽": ">", "≺": "<", "≻": ">", "⋖": "<", "⋗": ">", "«": "<", "»": ">", "❬": "<", "❭": ">",
  "∕": "/", "⁄": "/", "⧸": "/", "⟋": "/", "╱": "/", "∣": "|", "ǀ": "|", "❘": "|", "│": "|", "￨": "|", "¦": "|", "▏": "|", "⏐": "|", "⎜": "|", "⎟": "|", "⎥": "|", "⎢": "|", "ⵏ": "|", "︱": "|", "︳": "|", "❙": "|", "❚": "|", "ᛁ": "|",
  "‗": "_", "ˍ": "_", "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-", "▁": "_",
  а: "a", е: "e", о: "o", р: "p", с: "c", у: "y", х: "x", і: "i", ј: "j", ѕ: "s", ԁ: "d", һ: "h", ԛ: "q", ԝ: "w", к: "k", м: "m", т: "t", н: "h", в: "b", г: "r", п: "n", ь: "b",
  А: "a", Е: "e", О: "o", Р: "p", С: "c", У: "y", Х: "x", І: "i", Ј: "j", Ѕ: "s", К: "k", М: "m", Т: "t", Н: "h", В: "b",
  α: "a", ε: "e", ο: "o", ρ: "p", ι: "i", κ: "k", ν: "v", τ: "t", χ: "x", υ: "u", η: "n", μ: "u", ς: "s", β: "b", γ: "y",
  Α: "a", Β: "b", Ε: "e", Ζ: "z", Η: "h", Ι: "i", Κ: "k", Μ: "m", Ν: "n", Ο: "o", Ρ: "p", Τ: "t", Υ: "y", Χ: "x",
  ɡ: "g", ı: "i", ȷ: "j", ɑ: "a", ʟ: "l", ɴ: "n", ʀ: "r", ꜱ: "s", ᴛ: "t", ᴜ: "u", ᴋ: "k", ᴄ: "c", ᴇ: "e", ᴍ: "m", ᴏ: "o", ᴘ: "p", ʜ: "h",
};

const entity = /^&(?:amp;)*(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]{2,8}));?/i;
// A backslash before ASCII punctuation: JSON's `\/`, Markdown's `\<` `\_` `\>` (any number of backslashes, as
// when an escape is escaped again). The reader sees the punctuation.
const punctuationEscape = /^\\+([!-/:-@[-`{-~])/;
const escaped = /^(?:%(3c|3e|2f|7c|5b|5d)|\\+(?:u00(3c|3e|2f|7c|5b|5d)|x(3c|3e|2f|7c|5b|5d)|u\{(3c|3e|2f|7c|5b|5d)\}))/i;

/** Reads `text` the way a lenient model might; see `NormalisedView`. */
export function createNormalisedView(text: string): NormalisedView {
  const revealed = revealTagCharacters(text);
  const view: NormalisedView = { text: "", start: [], end: [] };
  const emit = (characters: string, from: number, to: number) => {
    for (const character of characters) {
      // NFKC can decompose into a base and a combining mark ("≮" is "<" + U+0338): the mark is skipped too.
      if (ignorable.test(character)) continue;
      // One entry per UTF-16 unit, so indices into `text` (what regexes report) index these arrays.
      const folded = foldCharacter(character);
      view.text += folded;
      for (let unit = 0; unit < folded.length; unit += 1) {
        view.start.push(revealed.start[from]!);
        view.end.push(revealed.end[to - 1]!);
      }
    }
  };
  const source = revealed.text;
  let index = 0;
  while (index < source.length) {
    const decoded = decodeEscape(source.slice(index, index + 40));
    if (decoded) {
      emit(decoded.text, index, index + decoded.length);
      index += decoded.length;
      continue;
    }
    const character = String.fromCodePoint(source.codePointAt(index)!);
    if (!ignorable.test(character)) emit(character.normalize("NFKC"), index, index + character.length);
    index += character.length;
  }
  return view;
}

// Invisible Unicode tag characters spell ASCII that several models read ("ASCII smuggling"); they
// are read first, so an entity spelled in them is decoded like a visible one.
function revealTagCharacters(text: string): NormalisedView {
  const revealed: NormalisedView = { text: "", start: [], end: [] };
  for (let index = 0; index < text.length; ) {
    const codePoint = text.codePointAt(index)!;
    const width = codePoint > 0xffff ? 2 : 1;
    const character = codePoint >= 0xe0020 && codePoint <= 0xe007e ? String.fromCharCode(codePoint - 0xe0000) : text.slice(index, index + width);
    revealed.text += character;
    for (let unit = 0; unit < character.length; unit += 1) {
      revealed.start.push(index);
      revealed.end.push(index + width);
    }
    index += width;
  }
  return revealed;
}

function decodeEscape(rest: string): { text: string; length: number } | undefined {
  if (rest[0] === "&") {
    const match = entity.exec(rest);
    if (!match) return undefined;
    const [whole, decimal, hex, name] = match;
    if (decimal !== undefined || hex !== undefined) {
      const codePoint = decimal !== undefined ? Number(decimal) : Number.parseInt(hex!, 16);
      if (codePoint > 0x10ffff) return undefined;
      const character = String.fromCodePoint(codePoint);
      return { text: ignorable.test(character) ? "" : character.normalize("NFKC"), length: whole.length };
    }
    const named = namedEntities[name!.toLowerCase()];
    return named === undefined ? undefined : { text: named, length: whole.length };
  }
  if (rest[0] === "%" || rest[0] === "\\") {
    const match = escaped.exec(rest);
    if (!match) {
      const punctuation = rest[0] === "\\" ? punctuationEscape.exec(rest) : null;
      return punctuation ? { text: punctuation[1]!, length: punctuation[0].length } : undefined;
    }
    const hex = match.slice(1).find((group) => group !== undefined)!;
    return { text: String.fromCharCode(Number.parseInt(hex, 16)), length: match[0].length };
  }
  return undefined;
}

/**
 * One character as the grammar compares it: the look-alike table first (punctuation the skeleton
 * keeps), ASCII lower-cased, and any other character by its UTS #39 confusables skeleton
 * (`unhomoglyph`, built from Unicode's confusables.txt) when that is plain ASCII — so Armenian `օ`,
 * Coptic `ⲟ` and Cyrillic `ӏ` read as `o`, `o` and `i`. ASCII itself is never skeletonised: the skeleton
 * maps `|` to `l` and `m` to `rn`, which would blind the grammar to real tokens.
 */
function foldCharacter(character: string): string {
  const mapped = confusables[character];
  if (mapped !== undefined) return mapped;
  if (character.charCodeAt(0) < 0x80) return character.toLowerCase();
  unhomoglyph ??= requireFromHere("unhomoglyph") as (text: string) => string;
  const skeleton = unhomoglyph(character);
  return skeleton !== character && /^[\x20-\x7e]+$/.test(skeleton) ? skeleton.toLowerCase() : character.toLowerCase();
}
