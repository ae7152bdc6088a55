import type { CliIo } from "../cli-io.js";
import { lintToolsCommand, lintToolsHelp } from "./lint-tools-command.js";
import { describeUnknownAction } from "../describe-unknown-action.js";

export const lintHelp = lintToolsHelp;

/** `ctxkit lint <what>`: checks of agent definitions (tools, for now). */
export async function lintCommand(args: string[], io: CliIo): Promise<number> {
  const [what, ...rest] = args;
  if (what === "tools") return lintToolsCommand(rest, io);
  if (what === "--help" || what === "-h") {
    io.stdout.write(lintHelp);
    return 0;
  }
  io.stderr.write(`ctxkit lint: ${what === undefined ? "say what to lint" : describeUnknownAction(what, ["tools"], "target")}.\n\n${lintHelp}`);
  return 2;
}
