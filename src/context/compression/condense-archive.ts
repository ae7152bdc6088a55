import { derivedOf, type Message } from "../../types/index.js";
import { derivedId, originalIdOf } from "./markers.js";
import { turnBudgets } from "./sectioned-summary.js";
import { isNumberOnlyLine } from "./extract-fact-lines.js";
import { keepByRank } from "./keep-by-rank.js";
import { recordedTagNonces, renderTaggedLines, tagLinesCost, tagOfTagLine, type ExternalTag, type TaggedLine } from "./tagged-lines.js";

/** An archive this batch may condense: a harness message derived as `archive` (see `createArchiveMessage`). */
export function isArchiveMessage(message: Message): message is Extract<Message, { role: "user" }> {
  return message.role === "user" && derivedOf(message, "archive") !== undefined;
}

/**
 * An archive again, at `share` of its fact lines: every turn keeps its gist line (what was called,
 * and whether it worked, with the id recall takes), and its fact lines in order, each that still
 * fits a common cap per turn, set so the share is spent (water-filling, as gemini-cli budgets each
 * block: the largest turns lose lines first). A line too long for what is left of its turn's cap is
 * skipped and shorter lines after it still go in: more facts stay than if the turn stopped at the
 * first line that does not fit. Lines that name something are placed before number-only lines
 * (`isNumberOnlyLine`), as fact lines are picked; what stays keeps its order. Lines in `keep` (ones a later archive or a stub left out because
 * this one shows them) stay whatever the cap, on top of it: paid from the cap, they pushed out
 * other lines, and on the tune half of swe-gemini line recall fell below what it was without them
 * (10k: 0.914; on top: 0.919, against 0.915 before, for 0.2% more cost; 12k: 0.977 against 0.973). Extractive like the archive itself:
 * no model call, and what stays is still verbatim — a compaction summary would keep the identifiers
 * but not their lines. Lines of a tagged result stay between its tags (see `turnLine`), which the
 * first of them kept pays for; a block whose lines all go loses its tags. Undefined when nothing would go.
 */
export function condenseArchive(message: Extract<Message, { role: "user" }>, share: number, batch: number, now: Date, keep: ReadonlySet<string> = new Set()): Message | undefined {
  const [header = "", ...body] = message.content.split("\n");
  // Only the tags the archive was written with are tags (one of trusted results has none): a line
  // of a trusted file that looks like a tag stays a line. One written before they were recorded
  // holds tags only when it holds untrusted results (see `turnLine`).
  const nonces = recordedTagNonces(message);
  const tagged = nonces !== undefined || (message.meta.provenance?.untrusted.length ?? 0) > 0;
  const turns: Array<{ gist: string; facts: TaggedLine[] }> = [];
  let tag: ExternalTag | undefined;
  for (const line of body) {
    const change = tagged ? tagOfTagLine(line.trim(), tag, nonces) : undefined;
    if (line.startsWith("- ") || turns.length === 0) {
      turns.push({ gist: line, facts: [] });
      tag = undefined;
    } else if (change !== undefined) tag = change ?? undefined;
    else turns.at(-1)!.facts.push(tag ? { line, tag } : { line });
  }
  // A turn's size counts its tag lines: its share pays for them again when a line of the block stays.
  const sizes = turns.map((turn) => turn.facts.reduce((sum, fact, position) => sum + fact.line.length + 1 + (fact.tag !== undefined && turn.facts[position - 1]?.tag?.nonce !== fact.tag.nonce ? tagLinesCost(fact.tag, "  ") : 0), 0));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total === 0) return undefined;
  const budgets = turnBudgets(sizes, Math.floor(total * share), "capped");
  let dropped = 0;
  const lines = turns.flatMap((turn, index) => {
    const mustStay = (fact: TaggedLine) => keep.has(fact.line.trim());
    // Lines that name something go first, then number-only ones (see `isNumberOnlyLine`); a line
    // that must stay costs nothing of the cap. The first line kept of a tagged block pays for its
    // tag lines: a block whose lines all go loses its tags with them.
    const paid = new Set<string>();
    const costOf = (fact: TaggedLine) => {
      if (mustStay(fact)) return 0;
      return fact.line.length + 1 + (fact.tag === undefined || paid.has(fact.tag.nonce) ? 0 : tagLinesCost(fact.tag, "  "));
    };
    const chosen = keepByRank(turn.facts, (fact) => (isNumberOnlyLine(fact.line) ? 1 : 0), costOf, budgets[index]!, (fact) => {
      if (fact.tag) paid.add(fact.tag.nonce);
    });
    const stays = turn.facts.filter((_, position) => chosen.has(position));
    dropped += turn.facts.length - stays.length;
    // The lines stay as they were written (indented); tags get the archive's indent.
    return [turn.gist, ...renderTaggedLines(stays, "", "  ")];
  });
  if (dropped === 0) return undefined;
  const derived = derivedOf(message, "archive")!;
  return {
    role: "user",
    content: [header, ...lines].join("\n"),
    meta: {
      ...message.meta,
      id: derivedId(originalIdOf(message.meta.id), `a${batch}`),
      createdAt: now.toISOString(),
      derived: { ...derived, batch },
    },
  };
}

/**
 * `condenseArchive` no further than `fits` needs: at the largest share, between `share` and all of
 * its lines, whose archive `fits` (the context with it reaches the batch's target), found by halving
 * the interval a few times (each step a hundredth or so of the archive's lines). When even `share`
 * does not fit, the archive at `share`: the batch condenses the next archive too. At `share` alone,
 * the archive that crossed the target lost lines the target did not ask for — on the tune half of
 * swe-gemini, most of the lines lost where a needed batch archived their turns (`docs/replay.md`).
 */
export function condenseArchiveToFit(
  message: Extract<Message, { role: "user" }>,
  share: number,
  fits: (condensed: Message) => boolean,
  batch: number,
  now: Date,
  keep: ReadonlySet<string> = new Set(),
): Message | undefined {
  const smallest = condenseArchive(message, share, batch, now, keep);
  if (smallest === undefined || !fits(smallest)) return smallest;
  let low = share;
  let high = 1;
  let best = smallest;
  for (let step = 0; step < 6; step += 1) {
    const middle = (low + high) / 2;
    const candidate = condenseArchive(message, middle, batch, now, keep);
    if (candidate !== undefined && fits(candidate)) {
      low = middle;
      best = candidate;
    } else high = middle;
  }
  return best;
}
