/**
 * Refuses a process-spawning helper outside the end-to-end suite: `npm test` stays fast because its
 * CLI tests call `main(argv, io)` in-process (test/run-cli.ts); what needs a real process or the
 * built binary is run by `npm run test:e2e`, whose config sets CTXKIT_TEST_E2E and builds dist/ first.
 */
export function requireEndToEnd(helper: string): void {
  if (process.env.CTXKIT_TEST_E2E === "1") return;
  throw new Error(
    `${helper} starts the built ctxkit binary in a child process: use it in an end-to-end test (test/e2e/ or a *.e2e.test.ts file, run by npm run test:e2e), or call the CLI in-process with runCli from test/run-cli.ts.`,
  );
}
