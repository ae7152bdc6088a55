import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "./bash.js";
import { describeSurvivors } from "./command-processes.js";
import { createTempWorkspace, runTool, type TempWorkspace } from "./test-support/temp-workspace.js";
import { killStartedProcesses, waitUntilGone } from "./test-support/test-processes.js";

// Issue 30, item 5: a process that cleared its environment (`env -i setsid …`) lost the marker
// variable, survived the call, and the result still said every child process was killed. The
// descriptor marker (fd 3) follows it; these need real processes, so they run end to end.
const onLinux = process.platform === "linux" ? describe : describe.skip;

onLinux("bash: processes that clear their environment do not outlive the call", () => {
  let temp: TempWorkspace;
  const started: number[] = [];
  beforeEach(async () => {
    temp = await createTempWorkspace();
  });
  afterEach(async () => {
    killStartedProcesses(started);
    await temp.remove();
  });
  const pidIn = async (file: string) => {
    const pid = Number(await readFile(path.join(temp.workspace, file), "utf8"));
    started.push(pid);
    return pid;
  };

  it("kills `env -i setsid …` on timeout, and the result's claim is true", async () => {
    const command = 'env -i setsid sh -c "echo \\$\\$ > e1.pid; exec sleep 30" & sleep 0.3; echo started; wait';
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command, timeout_ms: 1_000 });
    const pid = await pidIn("e1.pid");
    expect(result.content).toBe("exit code: none (timed out after 1000 ms; the command and its child processes were killed)\nstarted\n");
    expect(await waitUntilGone(pid)).toBe(true);
  });

  it("ends and names a process that removed the marker variable and left the session, when the command returns", async () => {
    const command = 'env -u CTXKIT_BASH_CALL setsid sh -c "echo \\$\\$ > e2.pid; exec sleep 30" & sleep 0.3; echo done';
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command });
    const pid = await pidIn("e2.pid");
    expect(await waitUntilGone(pid)).toBe(true);
    expect(result.content).toMatch(new RegExp(`^exit code: 0\\ndone\\n\\n\\[1 background process was still running when the command ended and was killed: ${pid} [^\\]]*sleep 30`));
  });

  it("ends a double fork with a cleared environment and no output pipes (found by its inherited descriptor)", async () => {
    const command = 'env -i setsid sh -c "sleep 32 & echo \\$! > e3.pid" >/dev/null 2>&1 </dev/null; sleep 0.3; echo done';
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command });
    const pid = await pidIn("e3.pid");
    expect(await waitUntilGone(pid)).toBe(true);
    expect(result.content).toMatch(new RegExp(`${pid} [^\\]]*sleep 32`));
  });

  // The outside battery of issue 30: a daemon that clears its environment, closes fd 3 and leaves the
  // session (what python-daemon and dbus-launch do) had shed both markers and outlived the call.
  it("ends a process that cleared its environment, closed its descriptors and left the session (found by its resource limit)", async () => {
    const command = 'env -i setsid sh -c "echo \\$\\$ > e4.pid; exec sleep 33" 3>&- >/dev/null 2>&1 </dev/null & sleep 0.3; echo done';
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command });
    const pid = await pidIn("e4.pid");
    expect(await waitUntilGone(pid)).toBe(true);
    expect(result.content).toMatch(new RegExp(`${pid} [^\\]]*sleep 33`));
  });

  it("ends such a process on timeout too", async () => {
    const command = 'env -i setsid sh -c "echo \\$\\$ > e5.pid; exec sleep 34" 3>&- >/dev/null 2>&1 </dev/null & sleep 30';
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command, timeout_ms: 1_000 });
    const pid = await pidIn("e5.pid");
    expect(await waitUntilGone(pid)).toBe(true);
    expect(result.content).toContain("the command and its child processes were killed");
  });

  it("leaves no marker file behind in the temporary folder", async () => {
    const { readdir } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const markers = async () => (await readdir(tmpdir())).filter((name) => /^ctxkit-bash-marker-[0-9a-f]{24}$/.test(name));
    // Markers already there are not this call's: a process killed (SIGKILL, by another test) between spawn and its shell's start leaves its own.
    const before = new Set(await markers());
    await runTool(createBashTool({ workspace: temp.workspace }), { command: "ls /proc/self/fd/3 >/dev/null && echo has-fd-3" }).then((result) => expect(result.content).toContain("has-fd-3"));
    // Other calls may run meanwhile (their files live only between spawn and the shell's start).
    const left = (await markers()).filter((name) => !before.has(name));
    expect(left.length).toBeLessThanOrEqual(1);
  });
});

describe("describeSurvivors", () => {
  it("names processes a kill did not end, never as killed", () => {
    expect(describeSurvivors([])).toBeUndefined();
    expect(describeSurvivors([{ pid: 42, command: "sleep 30" }])).toBe("[1 process the command started could not be killed and is still running: 42 sleep 30.]");
  });
});
