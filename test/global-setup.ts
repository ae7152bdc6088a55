import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

/**
 * Builds dist/ once before the suite: the end-to-end tests run the real `ctxkit` binary and kill
 * real child processes, which execute the compiled JavaScript, not the TypeScript sources.
 */
export default function buildOnce(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
}
