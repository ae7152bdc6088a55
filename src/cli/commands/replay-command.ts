import type { CliIo } from "../cli-io.js";

// PLACEHOLDER — being implemented; replaced by the real command.
export const replayHelp = `Usage: ctxkit replay (not implemented yet)\n`;

export async function replayCommand(_args: string[], io: CliIo): Promise<number> {
  io.stderr.write("ctxkit replay is not implemented yet.\n");
  return 2;
}
