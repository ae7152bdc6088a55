import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createBashTool } from "./bash.js";
import { expectToolError, runTool, useTempWorkspace } from "./test-support/temp-workspace.js";
import { untilExecuted, waitUntilGone } from "./test-support/test-processes.js";

describe("bash", () => {
  const temp = useTempWorkspace();

  it("runs in the workspace and reports the exit code", async () => {
    const tool = createBashTool({ workspace: temp.workspace });
    expect(await runTool(tool, { command: "pwd" })).toEqual({ content: `exit code: 0\n${temp.workspace}\n`, isError: false });
    expect(await runTool(tool, { command: "exit 3" })).toEqual({ content: "exit code: 3\n(no output)", isError: true });
    expect(tool.requiresConfirmation).toBe(true);
    expect(tool.parallelSafe).toBe(false);
  });

  it("interleaves stdout and stderr in the order they were written", async () => {
    const command = "echo out-1; sleep 0.05; echo err-1 >&2; sleep 0.05; echo out-2";
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command });
    expect(result.content).toBe("exit code: 0\nout-1\nerr-1\nout-2\n");
  });

  it("kills the command and its children when the timeout passes", async () => {
    // The child outlives the test's own timeout: a call that waited for it, not killing it, fails the
    // test with no clock read here (a bound on the call's time could break under load).
    const result = await runTool(createBashTool({ workspace: temp.workspace }), {
      command: "sleep 600 & echo $! > child.pid; echo started; wait",
      timeout_ms: 300,
    });
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      "exit code: none (timed out after 300 ms; the command and its child processes were killed)\nstarted\n",
    );
    const childPid = Number(await readFile(path.join(temp.workspace, "child.pid"), "utf8"));
    expect(await waitUntilGone(childPid)).toBe(true);
  });

  it("keeps the head and tail of long output and says how much was elided", async () => {
    const tool = createBashTool({ workspace: temp.workspace, maxOutputBytes: 1000 });
    const result = await runTool(tool, { command: "echo START; head -c 100000 /dev/zero | tr '\\0' x; echo; echo END" });
    expect(result.content.startsWith("exit code: 0\nSTART\n")).toBe(true);
    expect(result.content.endsWith("END\n")).toBe(true);
    const elided = /\[… (\d+) bytes elided from the middle of the output …\]/.exec(result.content);
    expect(Number(elided?.[1])).toBe(6 + 100_000 + 1 + 4 - 1000);
    expect(result.content.length).toBeLessThan(1200);
  });

  // The outside battery of issue 30 (item 7): binary output came back as ~30 KB of U+FFFD.
  it("says binary output is binary, with its size, instead of showing it as text", async () => {
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command: "head -c 100000 /dev/urandom" });
    expect(result.content).toMatch(/^exit code: 0\n\(binary output, 100000 bytes, not shown as text: pipe it through `xxd \| head`/);
    expect(result.content.length).toBeLessThan(400);
    expect(result.isError).toBe(false);
  });

  it("kills the command when the signal aborts", async () => {
    const controller = new AbortController();
    const tool = createBashTool({ workspace: temp.workspace });
    const running = runTool(tool, { command: "echo waiting; sleep 30" }, controller.signal);
    setTimeout(() => controller.abort(), 200);
    const result = await running;
    expect(result).toEqual({
      content: "exit code: none (aborted; the command and its child processes were killed)\nwaiting\n",
      isError: true,
    });
  });

  it("does not start a command when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expectToolError(
      runTool(createBashTool({ workspace: temp.workspace }), { command: "touch ran" }, controller.signal),
      "failed",
    );
  });

  // It flaked two ways: under load the call could take longer than its 3 s bound or the 5 s sleeper's
  // own life (then nothing was left to report), and the search could meet the sleeper mid-exec, when
  // its command line reads empty (2 of 300 reads right after a fork), naming it "(unknown)". Now the
  // sleeper outlives the test, so only the call can end it and a call that waited for its pipe would
  // time out, and the shell exits only once the sleeper's command line is `sleep 600`.
  it("returns when the shell exits though a background process keeps the output pipe open, and ends it", async () => {
    const command = `sleep 600 & echo $! > bg.pid; ${untilExecuted("$!", "sleep")}; echo done`;
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command, timeout_ms: 20_000 });
    const pid = Number(await readFile(path.join(temp.workspace, "bg.pid"), "utf8"));
    expect(result.content.startsWith("exit code: 0\ndone\n\n")).toBe(true);
    expect(result.content).toContain(`[1 background process was still running when the command ended and was killed: ${pid} sleep 600. `);
    expect(await waitUntilGone(pid)).toBe(true);
  });
});

// Issue 30: `(sleep 25 &)` kept running after the call returned, and `setsid sh -c "sleep 26"`
// survived the timeout kill (a session of its own is outside the call's process group).
describe("bash: processes a call started do not outlive it", () => {
  const temp = useTempWorkspace();
  const onLinux = process.platform === "linux" ? it : it.skip;

  it("ends a background subshell when the command returns, and reports it", async () => {
    // The shell waits for sleep's exec: caught in the middle of it, the process's command line reads empty.
    const command = `(sleep 25 & echo $! > bg.pid); ${untilExecuted("$(cat bg.pid)", "sleep")}; echo back`;
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command, timeout_ms: 20_000 });
    const pid = Number(await readFile(path.join(temp.workspace, "bg.pid"), "utf8"));
    expect(await waitUntilGone(pid)).toBe(true);
    expect(result.content.startsWith("exit code: 0\nback\n")).toBe(true);
    expect(result.content).toContain(`[1 background process was still running when the command ended and was killed: ${pid} sleep 25. `);
  });

  onLinux("kills a setsid'd process on timeout, though it left the process group", async () => {
    const command = 'setsid sh -c "echo \\$\\$ > escaped.pid; exec sleep 26" & sleep 0.3; echo started; wait';
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command, timeout_ms: 1_000 });
    expect(result.content.startsWith("exit code: none (timed out after 1000 ms")).toBe(true);
    const pid = Number(await readFile(path.join(temp.workspace, "escaped.pid"), "utf8"));
    expect(await waitUntilGone(pid)).toBe(true);
  });

  onLinux("ends a setsid'd double fork that outlives the shell, and names it", async () => {
    const command = 'setsid sh -c "sleep 27 & echo \\$! > far.pid" ; sleep 0.2; echo done';
    const result = await runTool(createBashTool({ workspace: temp.workspace }), { command });
    const pid = Number(await readFile(path.join(temp.workspace, "far.pid"), "utf8"));
    expect(await waitUntilGone(pid)).toBe(true);
    expect(result.content).toMatch(new RegExp(`${pid} [^\\]]*sleep 27`));
  });

  it("ends a running command's processes when ctxkit itself exits", async () => {
    // A real process that exits while its command sleeps, running the sources (npm test builds no dist/).
    const loader = new URL("../../../scripts/typescript-loader.mjs", import.meta.url).pathname;
    const child = spawn(process.execPath, ["--import", loader, "--input-type=module", "-e", exitScript(temp.workspace)], { stdio: ["ignore", "pipe", "inherit"] });
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    await new Promise((resolve) => child.once("exit", resolve));
    const pid = Number(await readFile(path.join(temp.workspace, "held.pid"), "utf8"));
    expect(printed).toContain("exiting");
    expect(await waitUntilGone(pid)).toBe(true);
  });
});

function exitScript(workspace: string): string {
  const module = new URL("./bash.ts", import.meta.url).pathname;
  return `
    const { createBashTool } = await import(${JSON.stringify(module)});
    const tool = createBashTool({ workspace: ${JSON.stringify(workspace)} });
    void tool.execute({ command: "sleep 28 & echo $! > held.pid; wait" }, { signal: new AbortController().signal, toolCallId: "x" });
    setTimeout(() => { console.log("exiting"); process.exit(0); }, 500);
  `;
}
