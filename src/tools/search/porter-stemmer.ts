/*
 * The Porter stemming algorithm (M. F. Porter, "An algorithm for suffix stripping", 1980), ported
 * to TypeScript from wooorm's `stemmer` 2.0.1 (https://github.com/words/stemmer), which carries
 * this notice:
 *
 * (The MIT License)
 *
 * Copyright (c) 2014 Titus Wormer <tituswormer@gmail.com>
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software
 * and associated documentation files (the 'Software'), to deal in the Software without
 * restriction, including without limitation the rights to use, copy, modify, merge, publish,
 * distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
 * Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or
 * substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED 'AS IS', WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
 * BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 * NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
 * DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 *
 * Ported rather than depended on: the package is ESM-only, so it could not be loaded on first use
 * the way fastest-levenshtein is, and the CLI loads no third-party package but valibot before its
 * first request (test/e2e/cli-startup-modules.test.ts). porter-stemmer.test.ts pins its output on
 * the words of Porter's paper.
 */

const step2list: Readonly<Record<string, string>> = {
  ational: "ate",
  tional: "tion",
  enci: "ence",
  anci: "ance",
  izer: "ize",
  bli: "ble",
  alli: "al",
  entli: "ent",
  eli: "e",
  ousli: "ous",
  ization: "ize",
  ation: "ate",
  ator: "ate",
  alism: "al",
  iveness: "ive",
  fulness: "ful",
  ousness: "ous",
  aliti: "al",
  iviti: "ive",
  biliti: "ble",
  logi: "log",
};

const step3list: Readonly<Record<string, string>> = { icate: "ic", ative: "", alize: "al", iciti: "ic", ical: "ic", ful: "", ness: "" };

// Consonant-vowel sequences: the "measure" m of a stem is how many vowel-consonant runs it has.
const consonant = "[^aeiou]";
const vowel = "[aeiouy]";
const consonants = `(${consonant}[^aeiouy]*)`;
const vowels = `(${vowel}[aeiou]*)`;

const measureAbove0 = new RegExp(`^${consonants}?${vowels}${consonants}`);
const measureIs1 = new RegExp(`^${consonants}?${vowels}${consonants}${vowels}?$`);
const measureAbove1 = new RegExp(`^${consonants}?(${vowels}${consonants}){2,}`);
const vowelInStem = new RegExp(`^${consonants}?${vowel}`);
const consonantVowelConsonant = new RegExp(`^${consonants}${vowel}[^aeiouwxy]$`);

const suffixLl = /ll$/;
const suffixE = /^(.+?)e$/;
const suffixY = /^(.+?)y$/;
const suffixIon = /^(.+?(s|t))(ion)$/;
const suffixEdOrIng = /^(.+?)(ed|ing)$/;
const suffixAtBlIz = /(at|bl|iz)$/;
const suffixEed = /^(.+?)eed$/;
const suffixS = /^.+?[^s]s$/;
const suffixSsesOrIes = /^.+?(ss|i)es$/;
const doubleConsonant = /([^aeiouylsz])\1$/;
const step2 = /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const step3 = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
const step4 = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;

/** The Porter stem of a word ("reservation" → "reserv", "entities" → "entiti"). */
export function porterStem(value: string): string {
  let result = value.toLowerCase();
  if (result.length < 3) return result;
  // An initial "y" is a consonant: hide it from the vowel patterns.
  const initialY = result.startsWith("y");
  if (initialY) result = `Y${result.slice(1)}`;

  // Step 1a: plurals.
  if (suffixSsesOrIes.test(result)) result = result.slice(0, -2);
  else if (suffixS.test(result)) result = result.slice(0, -1);

  // Step 1b: -eed, -ed, -ing.
  let match: RegExpExecArray | null;
  if ((match = suffixEed.exec(result))) {
    if (measureAbove0.test(match[1]!)) result = result.slice(0, -1);
  } else if ((match = suffixEdOrIng.exec(result)) && vowelInStem.test(match[1]!)) {
    result = match[1]!;
    if (suffixAtBlIz.test(result)) result += "e";
    else if (doubleConsonant.test(result)) result = result.slice(0, -1);
    else if (consonantVowelConsonant.test(result)) result += "e";
  }

  // Step 1c: a final y after a vowel in the stem becomes i.
  if ((match = suffixY.exec(result)) && vowelInStem.test(match[1]!)) result = `${match[1]!}i`;

  // Steps 2 and 3: double and single derivational suffixes.
  if ((match = step2.exec(result)) && measureAbove0.test(match[1]!)) result = match[1]! + step2list[match[2]!]!;
  if ((match = step3.exec(result)) && measureAbove0.test(match[1]!)) result = match[1]! + step3list[match[2]!]!;

  // Step 4: the rest of the suffixes, on stems long enough.
  if ((match = step4.exec(result))) {
    if (measureAbove1.test(match[1]!)) result = match[1]!;
  } else if ((match = suffixIon.exec(result)) && measureAbove1.test(match[1]!)) {
    result = match[1]!;
  }

  // Step 5: a final e, and a double l.
  if ((match = suffixE.exec(result)) && (measureAbove1.test(match[1]!) || (measureIs1.test(match[1]!) && !consonantVowelConsonant.test(match[1]!)))) {
    result = match[1]!;
  }
  if (suffixLl.test(result) && measureAbove1.test(result)) result = result.slice(0, -1);

  return initialY ? `y${result.slice(1)}` : result;
}
