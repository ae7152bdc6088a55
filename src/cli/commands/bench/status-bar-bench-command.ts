import type { CliIo } from "../../cli-io.js";

// PLACEHOLDER — being implemented; replaced by the real command.
export const statusBarBenchHelp = `Usage: ctxkit bench status-bar (not implemented yet)\n`;

export async function statusBarBenchCommand(_args: string[], io: CliIo): Promise<number> {
  io.stderr.write("ctxkit bench status-bar is not implemented yet.\n");
  return 2;
}
