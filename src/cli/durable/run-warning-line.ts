import { escapeForTerminal } from "../../context/escape-for-terminal.js";
import type { AgentEvent } from "../../types/index.js";
import { toCliMessage } from "../cli-error-message.js";

/**
 * What `ctxkit worker` prints for one event of a run it runs: a warning (a budget passing 80 %, a
 * shared scope's included), with the run's id, as `ctxkit run` prints a run's warnings; nothing for
 * the other events. Escaped: a message can quote a scope's or a tool's name.
 */
export function runWarningLine(runId: string, event: AgentEvent): string | undefined {
  if (event.type !== "warning") return undefined;
  // Advice in flags, as `ctxkit run` gives it: the run was submitted with the same ones (--max-output-tokens).
  return `${escapeForTerminal(`ctxkit worker: run ${runId}: ${toCliMessage(event)}`)}\n`;
}
