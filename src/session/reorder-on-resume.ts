import { CtxkitError } from "../types/index.js";
import type { LoadedSession, SessionWarning } from "./loaded-session.js";
import { planSessionReorder, type SessionReorder } from "./plan-session-reorder.js";
import type { SessionStore } from "./session-store.js";

/**
 * Loads a session to resume it. A file whose records are all valid but out of order (a request
 * before the messages it sent, usage before its request…) is refused by the loader, or loads with
 * usage it cannot count; with `repair` it is rewritten in an order the loader accepts (the original
 * kept as `<file>.before-repair`, any record no order can place kept in `<file>.removed`), and without
 * it the refusal says how to repair. Any other damage is thrown as the loader reported it.
 */
export async function loadForResume(store: SessionStore, id: string, repair: boolean): Promise<{ loaded: LoadedSession; reordered?: SessionWarning }> {
  let loaded: LoadedSession;
  try {
    loaded = await store.load(id);
  } catch (error) {
    if (!(error instanceof CtxkitError) || error.code !== "session_corrupt") throw error;
    const plan = planSessionReorder(await store.readRecords(id));
    if (plan === undefined) throw error;
    if (!repair) {
      throw new CtxkitError(
        "session_needs_repair",
        `${error.message} Every line is a valid record, but ${problems(plan).join("; ")}. Resume with \`repair: true\` (CLI: --repair) to put them back in order ` +
          "(the original is kept beside it); until then the file is not changed.",
        { cause: error },
      );
    }
    return reorder(store, id, plan);
  }
  // Usage that merely comes before its request loads as an orphan; removing it would lose its tokens,
  // so with consent it is moved after its request first (usage whose request no line holds is left out, as a repair would).
  if (!repair || !loaded.warnings.some((warning) => warning.code === "orphan_usage")) return { loaded };
  const plan = planSessionReorder(await store.readRecords(id));
  if (plan === undefined || plan.moved.length === 0) return { loaded };
  return reorder(store, id, plan);
}

async function reorder(store: SessionStore, id: string, plan: SessionReorder): Promise<{ loaded: LoadedSession; reordered: SessionWarning }> {
  const done = await store.repair(id, plan.removed, { order: plan.order });
  const loaded = await store.load(id);
  return {
    loaded,
    reordered: {
      code: "session_repaired",
      line: 0,
      removedLines: done.removedLines,
      movedLines: plan.moved,
      backupPath: done.backupPath,
      message: `Repaired: ${problems(plan).join("; ")}; the ${plan.removed.length === 0 ? "" : "other "}records were put back in order${left(plan, done.removedTo)}; the original is kept at ${done.backupPath}.`,
    },
  };
}

function problems(plan: SessionReorder): string[] {
  const why =
    plan.missingRequest === undefined
      ? "not placeable anywhere (what they refer to is missing)"
      : `not placeable anywhere: request ${plan.missingRequest} is missing from the file, and requests must be numbered 0, 1, 2, … in order, ` +
        "so no later request or its usage can follow the gap";
  return [describe(plan.moved, "out of order"), describe(plan.removed, why)].filter((part) => part !== "");
}

/** Exactly what was left out and where it went: the message must not read as if nothing was lost. */
function left(plan: SessionReorder, removedTo: string): string {
  if (plan.removed.length === 0) return "";
  return `; ${plan.removed.length} record${plan.removed.length === 1 ? " was" : "s were"} moved to ${removedTo}`;
}

function describe(lines: readonly number[], state: string): string {
  if (lines.length === 0) return "";
  return lines.length === 1 ? `line ${lines[0]} is ${state}` : `lines ${lines.join(", ")} are ${state}`;
}
