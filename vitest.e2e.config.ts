import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm run test:e2e`: the tests that need a real process or the built package — signals, EPIPE,
 * a pseudo-terminal, kill -9, the exit of the process, the packed and installed binary. The
 * global setup builds dist/ (and the viewer's page) first. A file is picked up by its name
 * (`*.e2e.test.ts`) or its folder (`test/e2e/`).
 */
export default defineConfig({
  test: {
    include: ["test/**/*.e2e.test.ts", "test/e2e/**/*.test.ts", "src/**/*.e2e.test.ts"],
    exclude: [...configDefaults.exclude],
    testTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/global-setup.ts"],
  },
});
