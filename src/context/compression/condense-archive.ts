import { derivedOf, type Message } from "../../types/index.js";
import { derivedId, originalIdOf } from "./markers.js";
import { turnBudgets } from "./sectioned-summary.js";

/** An archive this batch may condense: a harness message derived as `archive` (see `createArchiveMessage`). */
export function isArchiveMessage(message: Message): message is Extract<Message, { role: "user" }> {
  return message.role === "user" && derivedOf(message, "archive") !== undefined;
}

/**
 * An archive again, at `share` of its fact lines: every turn keeps its gist line (what was called,
 * and whether it worked, with the id recall takes), and its fact lines from the first on, up to a
 * common cap per turn set so the share is spent (water-filling, as gemini-cli budgets each block:
 * the largest turns lose lines first). Extractive like the archive itself: no model call, and what
 * stays is still verbatim — a compaction summary would keep the identifiers but not their lines.
 * Undefined when nothing would go.
 */
export function condenseArchive(message: Extract<Message, { role: "user" }>, share: number, batch: number, now: Date): Message | undefined {
  const [header = "", ...body] = message.content.split("\n");
  const turns: Array<{ gist: string; facts: string[] }> = [];
  for (const line of body) {
    if (line.startsWith("- ") || turns.length === 0) turns.push({ gist: line, facts: [] });
    else turns.at(-1)!.facts.push(line);
  }
  const sizes = turns.map((turn) => turn.facts.reduce((sum, fact) => sum + fact.length + 1, 0));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total === 0) return undefined;
  const budgets = turnBudgets(sizes, Math.floor(total * share), "capped");
  let dropped = 0;
  const lines = turns.flatMap((turn, index) => {
    let left = budgets[index]!;
    const kept = turn.facts.filter((fact) => {
      if (fact.length + 1 > left) return false;
      left -= fact.length + 1;
      return true;
    });
    dropped += turn.facts.length - kept.length;
    return [turn.gist, ...kept];
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
