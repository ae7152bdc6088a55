import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm test`: the unit and CLI tests, in-process (the CLI's `main(argv, io)` with its own streams),
 * from the TypeScript sources — no build, no child Node process for the CLI. What needs a real
 * process or the built package is in vitest.e2e.config.ts (`npm run test:e2e`).
 */
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "**/*.e2e.test.ts", "test/e2e/**"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
