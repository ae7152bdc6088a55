import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// No database is set in these runs: each mistake is named before one is asked for.
describe("ctxkit runs, submit and worker without a database", () => {
  it("say once which command needs one and how to give it", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-runs-usage-"));
    for (const args of [["runs", "list"], ["submit", "a task"], ["worker"]]) {
      const run = await runCli(args, { cwd, env: { CTXKIT_DATABASE_URL: "" } });
      expect(run.code, args.join(" ")).toBe(1);
      // It read "ctxkit runs: ctxkit runs needs a PostgreSQL database…".
      expect(run.stderr).toBe(`ctxkit ${args[0]}: no PostgreSQL database is set: pass --database-url postgres://user@host:port/db or set CTXKIT_DATABASE_URL.\n`);
    }
  });

  // `runs resume <id> --approve --decline` reran the call: the first flag read won.
  it.each([
    [["resume", "r1", "--approve", "--decline"], "--approve and --decline contradict each other: give --approve (run the call) or --decline (do not)."],
    [["resume", "r1", "--rerun", "--skip"], "--rerun and --skip contradict each other: give --approve (run the call) or --decline (do not)."],
    [["cancel", "r1", "--approve"], "--approve answers a run that waits for a person: ctxkit runs resume <id> --approve."],
    [["show", "r1", "--skip"], "--skip answers a run that waits for a person: ctxkit runs resume <id> --skip."],
    // `runs show "$RUN"` with RUN unset looked for a run '' in the database (exit 1, "No durable run  in …").
    [["show", ""], "show needs a run id (see ctxkit runs list)."],
    [["cancel", " "], "cancel needs a run id (see ctxkit runs list)."],
  ])("runs %j is a usage error", async (args, reason) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-runs-usage-"));
    const run = await runCli(["runs", ...args], { cwd, env: { CTXKIT_DATABASE_URL: "" } });
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toBe(`ctxkit runs: ${reason}`);
  });
});
