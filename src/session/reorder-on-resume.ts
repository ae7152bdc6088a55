import { readFile } from "node:fs/promises";
import { CtxkitError } from "../types/index.js";
import type { LoadedSession, SessionWarning } from "./loaded-session.js";
import { planSessionReorder } from "./plan-session-reorder.js";
import { repairSessionFile } from "./repair-session-file.js";
import type { SessionStore } from "./session-store.js";

/**
 * Loads a session to resume it. A file whose records are all valid but out of order (a request
 * before the messages it sent, usage before its request…) is refused by the loader; with `repair`
 * it is rewritten in an order the loader accepts (the original kept as `<file>.before-repair`, any
 * record no order can place kept in `<file>.removed`), and without it the refusal says how to repair.
 * Any other damage is thrown as the loader reported it.
 */
export async function loadForResume(store: SessionStore, id: string, repair: boolean): Promise<{ loaded: LoadedSession; reordered?: SessionWarning }> {
  try {
    return { loaded: await store.load(id) };
  } catch (error) {
    if (!(error instanceof CtxkitError) || error.code !== "session_corrupt") throw error;
    const plan = planSessionReorder(await readFile(store.path(id)));
    if (plan === undefined) throw error;
    const problems = [describe(plan.moved, "out of order"), describe(plan.removed, "not placeable anywhere (what they refer to is missing)")].filter((part) => part !== "");
    if (!repair) {
      throw new CtxkitError(
        "session_needs_repair",
        `${error.message} Every line is a valid record, but ${problems.join("; ")}. Resume with \`repair: true\` (CLI: --repair) to put them back in order ` +
          "(the original is kept beside it); until then the file is not changed.",
        { cause: error },
      );
    }
    const done = await repairSessionFile(store.path(id), plan.removed, { order: plan.order });
    const loaded = await store.load(id);
    const kept = plan.removed.length > 0 ? `; the records left out are in ${store.path(id)}.removed` : "";
    return {
      loaded,
      reordered: {
        code: "session_repaired",
        line: 0,
        removedLines: done.removedLines,
        movedLines: plan.moved,
        backupPath: done.backupPath,
        message: `Repaired: ${problems.join("; ")}; the records were put back in order${kept}; the original is kept at ${done.backupPath}.`,
      },
    };
  }
}

function describe(lines: readonly number[], state: string): string {
  if (lines.length === 0) return "";
  return lines.length === 1 ? `line ${lines[0]} is ${state}` : `lines ${lines.join(", ")} are ${state}`;
}
