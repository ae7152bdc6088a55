import type { CliIo } from "../cli-io.js";

// PLACEHOLDER — being implemented; replaced by the real command.
export const inspectHelp = `Usage: ctxkit inspect (not implemented yet)\n`;

export async function inspectCommand(_args: string[], io: CliIo): Promise<number> {
  io.stderr.write("ctxkit inspect is not implemented yet.\n");
  return 2;
}
