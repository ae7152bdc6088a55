import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// src/bench/ → the checkout's scripts/ (only there when running from the sources).
const typescriptLoader = new URL("../../scripts/typescript-loader.mjs", import.meta.url);

/**
 * The command that runs one of the package's own scripts with this Node, in a child process: its
 * compiled `.js` (the installed package, dist/); when only the `.ts` is there (the sources of a
 * checkout, as the tests run them), that file through scripts/typescript-loader.mjs.
 */
export function nodeScriptCommand(compiled: URL): { command: string; args: string[] } {
  const file = fileURLToPath(compiled);
  const source = file.replace(/\.js$/, ".ts");
  if (existsSync(file) || !existsSync(source)) return { command: process.execPath, args: [file] };
  return { command: process.execPath, args: ["--import", typescriptLoader.href, source] };
}
