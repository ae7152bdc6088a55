import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { endToEndTests } from "./vitest.e2e.config.js";

/**
 * `npm test`: the unit and CLI tests, from the TypeScript sources, with no build: CLI tests call
 * the CLI's `main(argv, io)` in-process (test/run-cli.ts). What needs a real process or the built
 * package is in vitest.e2e.config.ts (`npm run test:e2e`).
 */
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...endToEndTests],
    testTimeout: 30_000,
    pool: "forks",
    // Many files mostly wait (loopback servers, MCP server processes, backpressure timers): one
    // worker more than the cores keeps them busy, where vitest's default (cores − 1) runs a
    // two-core machine one file at a time.
    maxWorkers: availableParallelism() + 1,
    // Files share a worker's loaded modules (the CLI, providers, tokenizers are loaded once per
    // worker, not once per file): half the CPU time. Tests restore what they change of the process
    // (test/run-cli-in-process.test.ts checks the CLI leaves nothing behind).
    isolate: false,
  },
});
