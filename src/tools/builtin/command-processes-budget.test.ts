import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "./bash.js";
import { CommandProcesses, commandLine, commandMarkerVariable, defaultProcessSearchBudget, describeSearchCut, killRunningCommands } from "./command-processes.js";
import { createTempWorkspace, runTool, type TempWorkspace } from "./test-support/temp-workspace.js";
import { killStartedProcesses, untilExecuted, waitUntilGone } from "./test-support/test-processes.js";

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
  killStartedProcesses(started);
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

  it("still kills, and reports, what a search cut by its deadline had found", async () => {
    const shell = startShell();
    // Outside the shell's group and session, so only its marker variable makes it the call's.
    const { CTXKIT_BASH_CALL: _inherited, ...environment } = process.env;
    const marked = spawn("sleep", ["40"], { detached: true, stdio: "ignore", env: { ...environment, [commandMarkerVariable]: "budget-found" } });
    marked.unref();
    started.push(marked.pid!);
    // One more process after it, so that the search has an entry left to stop at.
    const after = startShell();
    // The clock reads 0 (the deadline too) until the search has stepped past the marked process's
    // entry, then late: the search finds it, and stops at a later entry.
    // One listing for both: processes of other tests end meanwhile, and move later entries up.
    const entries = readdirSync("/proc");
    const markedEntry = entries.indexOf(String(marked.pid));
    expect(markedEntry).toBeGreaterThan(-1);
    expect(entries.indexOf(String(after))).toBeGreaterThan(markedEntry);
    let readings = 0;
    const now = () => (readings++ <= markedEntry + 1 ? 0 : 1);
    const processes = new CommandProcesses(shell, "budget-found", undefined, { maxMilliseconds: 0, maxCheckedProcesses: 1_000_000, entriesBeforeDeadline: 0, now });
    try {
      expect(processes.killAll().map((entry) => entry.pid)).toEqual([marked.pid]);
      expect(processes.lastSearchCut?.reason).toBe("time");
      expect(await waitUntilGone(marked.pid!)).toBe(true);
    } finally {
      processes.release();
    }
  });

  it("searches without a bound when ctxkit exits, and kills what a bounded search would miss", async () => {
    const shell = startShell();
    const { CTXKIT_BASH_CALL: _inherited, ...environment } = process.env;
    const marked = spawn("sleep", ["40"], { detached: true, stdio: "ignore", env: { ...environment, [commandMarkerVariable]: "budget-exit" } });
    marked.unref();
    started.push(marked.pid!);
    const processes = new CommandProcesses(shell, "budget-exit", undefined, { maxMilliseconds: 60_000, maxCheckedProcesses: 0 });
    try {
      processes.killAll();
      expect(processes.lastSearchCut?.reason).toBe("checks");
      killRunningCommands();
      expect(processes.lastSearchCut).toBeUndefined();
      expect(await waitUntilGone(marked.pid!)).toBe(true);
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

  it("is not cut by the default limit of processes checked, and says nothing", () => {
    // The clock stands still: how long this machine takes is a bench's business (bench:bash-processes), not a test's.
    const processes = new CommandProcesses(startShell(), "budget-default", undefined, { ...defaultProcessSearchBudget, now: () => 0 });
    try {
      processes.killAll();
      expect(processes.lastSearchCut).toBeUndefined();
    } finally {
      processes.release();
    }
  });

  it("tells the model that a process left running may have been missed, instead of claiming none is left", async () => {
    // The setsid'd sleep leaves the call's group and session: only a marker check finds it, and none may
    // run. The shell waits for its exec of sleep (setsid's own call comes before): a forked shell not yet
    // through it is still in the group, found without a check.
    const bash = createBashTool({ workspace: temp.workspace, processSearchBudget: { maxMilliseconds: 60_000, maxCheckedProcesses: 0 } });
    const command = `setsid sleep 30 & echo $! > left.pid; ${untilExecuted("$!", "sleep")}; echo done`;
    const result = await runTool(bash, { command, timeout_ms: 20_000 });
    const pid = Number(await readFile(path.join(temp.workspace, "left.pid"), "utf8"));
    started.push(pid);
    expect(result.content).toBe(
      "exit code: 0\ndone\n\n" +
        "[The search for processes the command left running stopped at its limit of 0 processes checked (the machine runs many " +
        "processes started after the command), so some it started may still be running unnoticed; check with `ps -eo pid,etime,args` and end them with kill.]",
    );
  });

  it("names a process whose command line reads empty (mid-exec, or a zombie) by its program", async () => {
    // `sleep 0` ends a zombie, never reaped by the `sleep 40` its parent became.
    const { CTXKIT_BASH_CALL: _inherited, ...environment } = process.env;
    const parent = spawn("/bin/sh", ["-c", "sleep 0 & echo $! > zombie.pid; exec sleep 40"], { cwd: temp.workspace, detached: true, stdio: "ignore", env: environment });
    parent.unref();
    started.push(parent.pid!);
    // Polled until the zombie shows, for as long as a loaded machine needs (the test's own timeout
    // bounds it): 5 s of polling ran out under a full suite beside other work.
    let zombie = 0;
    let isZombie = false;
    while (!isZombie) {
      zombie = Number(await readFile(path.join(temp.workspace, "zombie.pid"), "utf8").catch(() => "0"));
      isZombie = zombie > 0 && /^State:\s+Z/m.test(await readFile(`/proc/${zombie}/status`, "utf8").catch(() => ""));
      if (!isZombie) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(commandLine(zombie)).toBe("[sleep]");
    expect(commandLine(parent.pid!)).toBe("sleep 40");
  });

  it("says nothing when the search was complete", () => {
    expect(describeSearchCut(undefined)).toBeUndefined();
  });

  it("does not blame many processes for a search a busy machine cut by time after a few checks", () => {
    expect(describeSearchCut({ reason: "time", checked: 3 })).toBe(
      "[The search for processes the command left running stopped after 500 ms, 3 processes checked (the machine is busy or runs many " +
        "processes), so some it started may still be running unnoticed; check with `ps -eo pid,etime,args` and end them with kill.]",
    );
  });
});
