import { escapeForTerminal } from "../../context/escape-for-terminal.js";
import type { DurableRunRecord } from "../../durable/durable-run-record.js";
import { toCliMessage } from "../cli-error-message.js";

/** One line per run for a person: id, status, attempts, and the answer or the reason it stopped. */
export function describeRun(run: DurableRunRecord): string {
  const attempts = run.attempts > 1 ? `, ${run.attempts} attempts` : "";
  const repeats = run.result?.repeatedModelCalls ? `, ${run.result.repeatedModelCalls} model calls repeated` : "";
  const paused = run.pausedCall ? ` — waiting: ${pausedWhy(run.pausedCall)}; ctxkit runs resume ${run.id} --approve | --decline` : "";
  const outcome = run.result?.error ? ` — ${toCliMessage(run.result.error)}` : run.result?.finalText ? ` — ${run.result.finalText.replace(/\s+/g, " ").slice(0, 100)}` : "";
  return escapeForTerminal(`${run.id}  ${run.status}${attempts}${repeats}  session ${run.sessionId}  ${run.task.replace(/\s+/g, " ").slice(0, 60)}${paused}${outcome}`);
}

function pausedWhy(paused: NonNullable<DurableRunRecord["pausedCall"]>): string {
  if (paused.reason === "budget") return `the budget asks before going over its limit${paused.why ? ` (${paused.why})` : ""}`;
  if (paused.reason === "confirmation") return `a ${paused.tool} call asks for confirmation${paused.arguments ? ` ${paused.arguments.slice(0, 200)}` : ""}${paused.why ? ` (${paused.why})` : ""}`;
  // A crash, or a cancel: a call in flight when its run was cancelled is not recorded either, and asks when the run is resumed.
  return `a ${paused.tool} call was interrupted (its worker stopped, or the run was cancelled, during the call) and may or may not have taken effect`;
}
