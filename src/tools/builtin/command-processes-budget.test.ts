import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "./bash.js";
import { CommandProcesses, describeSearchCut } from "./command-processes.js";
import { createTempWorkspace, runTool, type TempWorkspace } from "./test-support/temp-workspace.js";

// Issue 30 follow-up: the synchronous /proc search after each bash call had no bound (some 0.1 ms per
// newer process), and a result said nothing of processes it had not looked at. Each search is bounded
// now, and a result whose last search stopped early says so.
const onLinux = process.platform === "linux" ? describe : describe.skip;

const started: number[] = [];
let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
});
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
  await temp.remove();
});

/** A stand-in for a call's shell, in a group of its own and without any call's marker variable. */
function startShell(): number {
  const { CTXKIT_BASH_CALL: _inherited, ...environment } = process.env;
  const child = spawn("sleep", ["40"], { detached: true, stdio: "ignore", env: environment });
  child.unref();
  started.push(child.pid!);
  return child.pid!;
}

onLinux("the search for a bash call's processes, bounded", () => {
  it("stops at its deadline and says it was cut by time", () => {
    let clock = 0;
    const processes = new CommandProcesses(startShell(), "budget-time", undefined, { maxMilliseconds: 10, maxCheckedProcesses: 1_000_000, entriesBeforeDeadline: 0, now: () => (clock += 100) });
    try {
      processes.killAll();
      expect(processes.lastSearchCut).toEqual({ reason: "time", checked: 0 });
    } finally {
      processes.release();
    }
  });

  it("looks at the first entries of /proc whatever the clock says", () => {
    let clock = 0;
    const budget = { maxMilliseconds: 10, maxCheckedProcesses: 1_000_000, entriesBeforeDeadline: 1_000_000, now: () => (clock += 100) };
    const processes = new CommandProcesses(startShell(), "budget-small", undefined, budget);
    try {
      processes.killAll();
      expect(processes.lastSearchCut).toBeUndefined();
    } finally {
      processes.release();
    }
  });

  it("completes within the default budget and says nothing", () => {
    const processes = new CommandProcesses(startShell(), "budget-default");
    try {
      processes.killAll();
      expect(processes.lastSearchCut).toBeUndefined();
    } finally {
      processes.release();
    }
  });

  it("tells the model that a process left running may have been missed, instead of claiming none is left", async () => {
    // The setsid'd sleep leaves the call's group and session: only a marker check finds it, and none may run.
    const bash = createBashTool({ workspace: temp.workspace, processSearchBudget: { maxMilliseconds: 60_000, maxCheckedProcesses: 0 } });
    const result = await runTool(bash, { command: "setsid sleep 30 & echo $! > left.pid; echo done" });
    const pid = Number(await readFile(path.join(temp.workspace, "left.pid"), "utf8"));
    started.push(pid);
    expect(result.content).toBe(
      "exit code: 0\ndone\n\n" +
        "[The search for processes the command left running stopped at its limit of 0 processes checked (0 checked; the machine runs " +
        "many newer processes), so some it started may still be running unnoticed; check with `ps -eo pid,etime,args` and end them with kill.]",
    );
  });

  it("says nothing when the search was complete", () => {
    expect(describeSearchCut(undefined)).toBeUndefined();
  });
});
