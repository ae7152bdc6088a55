import type { CliIo } from "../../cli-io.js";

// PLACEHOLDER — being implemented; replaced by the real command.
export const kvCacheBenchHelp = `Usage: ctxkit bench kv-cache (not implemented yet)\n`;

export async function kvCacheBenchCommand(_args: string[], io: CliIo): Promise<number> {
  io.stderr.write("ctxkit bench kv-cache is not implemented yet.\n");
  return 2;
}
