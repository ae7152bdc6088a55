import { porterStem } from "./porter-stemmer.js";

/**
 * The Porter stem of a lowercase word (`porterStem`, ported from wooorm's `stemmer`), applied the same way to tools and
 * queries: "reserve", "reserved" and "reservation" meet at "reserv", "reviewers" at "review",
 * "entities" at "entiti". Porter replaced a lighter suffix stripper because it also meets a verb
 * with its nouns, which tool descriptions and queries mix ("book a reservation" / "reserve seats");
 * chosen on the tune half of `ctxkit bench tool-search`. Words with digits or other scripts are
 * kept as they are.
 */
export function stemWord(word: string): string {
  return /^[a-z]+$/.test(word) ? porterStem(word) : word;
}
