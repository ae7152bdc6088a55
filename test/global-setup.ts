import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { build } from "vite";

/**
 * Builds dist/ once before the suite: the end-to-end tests run the real `ctxkit` binary and kill
 * real child processes, which execute the compiled JavaScript, not the TypeScript sources. The
 * viewer's page (dist/web/page) is bundled too, for the browser tests of `ctxkit view`.
 */
export default async function buildOnce(): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
  // The binary runs the CLI from its bundle (dist/cli-bundle), made from what tsc just wrote.
  execFileSync(process.execPath, ["scripts/bundle-cli.mjs"], { stdio: "inherit" });
  await build({ configFile: "web/vite.config.ts" });
}
