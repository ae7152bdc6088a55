import { configDefaults, defineConfig } from "vitest/config";

/**
 * End-to-end test files kept at their paths (other work edits them): the export list of dist/, the
 * packed file list, a tarball installed in a fresh project, the examples compiled against the
 * package, and the hardening batteries that SIGKILL and start the binary (the others also run
 * in-process in test/bench-hardening-in-process.test.ts).
 */
export const builtPackageTests = ["test/public-exports.test.ts", "test/package-contents.test.ts", "test/packaging.test.ts", "test/examples.test.ts", "test/bench-hardening.test.ts"];

/** Where an end-to-end test is found: its folder, its name, or the list above. */
export const endToEndTests = ["test/e2e/**/*.test.ts", "**/*.e2e.test.ts", ...builtPackageTests];

/**
 * `npm run test:e2e`: the tests that need a real process or the built package — signals, EPIPE,
 * a pseudo-terminal, kill -9, the exit of the process, the packed and installed binary, the viewer
 * in a browser. The global setup builds dist/ (and the viewer's page) first. Everything else runs
 * in `npm test` (vitest.config.ts), in-process and from the sources.
 */
export default defineConfig({
  test: {
    include: endToEndTests,
    exclude: [...configDefaults.exclude],
    testTimeout: 30_000,
    pool: "forks",
    globalSetup: ["test/global-setup.ts"],
    // The process-spawning helpers (runInPty, runCliProcess, startViewer) refuse to run without it.
    env: { CTXKIT_TEST_E2E: "1" },
  },
});
