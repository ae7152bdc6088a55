import type { CliIo } from "../../cli-io.js";

export const tauRunHelp = `Usage: ctxkit bench tau run --model <name> --domain airline|retail [--tasks 0-9] [--trials k] [--arms <a,b>]
`;

export async function tauRunCommand(_args: string[], io: CliIo): Promise<number> {
  io.stderr.write("ctxkit bench tau run: not available yet.\n");
  return 2;
}
