import { execFileSync } from "node:child_process";
import { appendFile, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompression } from "../../context/compression/create-compression-policy.js";
import { assembleAgent } from "../../agents/assemble-agent.js";
import { createScriptedProvider } from "../../providers/scripted/create-scripted-provider.js";
import { createBashTool } from "../../tools/builtin/bash.js";
import { createEditFileTool } from "../../tools/builtin/edit-file.js";
import { createGrepTool } from "../../tools/builtin/grep.js";
import { createReadFileTool } from "../../tools/builtin/read-file.js";
import { defaultMaxToolResultCharacters } from "../../tools/cap-tool-output.js";
import { createToolOutputCap } from "../../tools/create-tool-output-cap.js";
import type { Tool } from "../../tools/tool.js";
import { createWebFetchTool } from "../../tools/builtin/web-fetch/web-fetch-tool.js";
import type { Message } from "../../types/index.js";
import { ToolError } from "../../types/tool-error.js";
import { BatteryTally, describeError, runTrial, type BatteryResult, type FailureClass } from "./hardening-trial.js";

interface ResourceCase {
  name: string;
  boundMs: number;
  /**
   * The event loop's worst delay this case may cause, judged at the default scale (reported only at
   * --trials, where a loaded machine's scheduling would make it flaky): a 1.9 s stall is under the
   * 2 s freeze bound every trial has, so a case that must not stall at all says so here.
   */
  maxLagMs?: number;
  /** Runs the case; returns what the result was, or throws a `LimitNotHeld` saying why it is wrong. */
  run(): Promise<string>;
}

/** Each tool call as the loop makes it: a ToolError is the error result the model reads. */
async function callTool(tool: Tool<never>, args: Record<string, unknown>): Promise<{ content: string; isError: boolean }> {
  try {
    const output = await tool.execute(args as never, { signal: AbortSignal.timeout(60_000), toolCallId: "call" });
    return typeof output === "string" ? { content: output, isError: false } : { content: output.content, isError: output.isError === true };
  } catch (error) {
    if (error instanceof ToolError) return { content: error.message, isError: true };
    throw error;
  }
}

/**
 * A case whose limit did not hold, with the failure it stands for, so a regression is counted as what
 * it is rather than as a crash: a limit not enforced lets the process block or grow (a freeze), a
 * cut that is not reported changes what the model reads without a warning (a silent merge).
 */
class LimitNotHeld extends Error {
  constructor(
    readonly failure: FailureClass,
    message: string,
  ) {
    super(message);
    this.name = "LimitNotHeld";
  }
}

/** A limit that must refuse the call: anything but an error result saying `contains` means it was not enforced. */
function expectError(result: { content: string; isError: boolean }, contains: string): string {
  if (!result.isError || !result.content.includes(contains)) throw new LimitNotHeld("freezes", `expected an error result saying "${contains}", got: ${result.content.slice(0, 200)}`);
  return result.content.slice(0, 120);
}

async function readPid(file: string): Promise<number> {
  return Number((await readFile(file, "utf8")).trim());
}

/** The process must be gone (or a zombie: killed, waiting for a parent that may never reap it) within a second. */
async function expectGone(pid: number, content: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "State: gone");
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive || /^State:\s+(Z|gone)/m.test(status)) return `process ${pid} ended with the call: ${content.split("\n")[0]}`;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.kill(pid, "SIGKILL");
  throw new LimitNotHeld("escapes", `process ${pid} outlived its bash call`);
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function cases(workspace: string, lineMegabytes: number): ResourceCase[] {
  const read = createReadFileTool({ workspace, maxLineCharacters: 200 });
  const grep = createGrepTool({ workspace, patternTimeoutMs: 2_000 });
  return [
    {
      name: "grep with ^(a+)+$ on 40 a's and a '!' (catastrophic backtracking)",
      boundMs: 60_000,
      run: async () => {
        await writeFile(join(workspace, "redos.txt"), `${"a".repeat(40)}!\n`);
        return expectError(await callTool(grep, { pattern: "^(a+)+$", path: "redos.txt" }), "");
      },
    },
    {
      name: "read_file and grep on a FIFO",
      boundMs: 20_000,
      run: async () => {
        if (process.platform === "win32") return "no FIFOs on Windows";
        execFileSync("mkfifo", [join(workspace, "pipe")]);
        expectError(await callTool(grep, { pattern: "x", path: "pipe" }), "FIFO");
        return expectError(await callTool(read, { path: "pipe" }), "FIFO");
      },
    },
    {
      // Issue 30: read_file counted this line's characters byte by byte in 64 KB reads, 3–5 s.
      name: "read_file on a 1 GB single-line file (64 MB at --trials; the line cap lowered to 200)",
      boundMs: 60_000,
      maxLagMs: 1_000,
      run: async () => {
        const file = join(workspace, "one-line.txt");
        await writeFile(file, "");
        const megabyte = Buffer.alloc(1024 * 1024, "x");
        for (let written = 0; written < lineMegabytes; written += 1) await appendFile(file, megabyte);
        const before = process.memoryUsage().rss;
        const start = performance.now();
        const result = await callTool(read, { path: "one-line.txt" });
        const readMs = performance.now() - start;
        await rm(file);
        // The budget may stop the count first; then the length is a lower bound, said as one.
        if (!/\[line cut: (at least )?\d+ characters\]/.test(result.content)) throw new LimitNotHeld("silentMerges", `the cut line is not reported: ${result.content.slice(0, 200)}`);
        return `read in ${Math.round(readMs)} ms, ${result.content.length} characters shown, RSS grew ${megabytes(process.memoryUsage().rss - before)}`;
      },
    },
    {
      name: "edit_file on a 1 GB file (sparse)",
      boundMs: 20_000,
      run: async () => {
        await writeFile(join(workspace, "big.log"), "");
        await truncate(join(workspace, "big.log"), 1024 * 1024 * 1024);
        return expectError(await callTool(createEditFileTool({ workspace }), { path: "big.log", old_string: "a", new_string: "b" }), "read_file (offset and limit)");
      },
    },
    {
      name: "a 50 MB tool result (bash printing 50 MB)",
      boundMs: 120_000,
      maxLagMs: 1_000,
      run: async () => {
        if (process.platform === "win32") return "no bash on Windows";
        const bash = createBashTool({ workspace, spillDirectory: join(workspace, ".spill") });
        const before = process.memoryUsage().rss;
        const result = await callTool(bash, { command: "head -c 52428800 /dev/zero | tr '\\0' a" });
        if (result.content.length > 1024 * 1024) throw new LimitNotHeld("freezes", `the result kept ${result.content.length} characters`);
        return `${result.content.length} characters kept, RSS grew ${megabytes(process.memoryUsage().rss - before)}`;
      },
    },
    {
      name: "a 50 MB tool result (a tool returning a 50 MB string, through the loop's cap)",
      boundMs: 120_000,
      maxLagMs: 1_000,
      run: async () => {
        const dump: Tool = { name: "dump", description: "Returns far too much.", parameters: { type: "object", properties: {} }, execute: async () => "x".repeat(50 * 1024 * 1024) };
        const provider = createScriptedProvider({ turns: [{ toolCalls: [{ name: "dump", arguments: {} }] }, "Done."] });
        const { agent } = await assembleAgent({ provider, system: "s", tools: [dump], policies: [createToolOutputCap()] });
        let kept = -1;
        for await (const event of agent.run("Dump it.")) if (event.type === "tool_result") kept = event.message.content.length;
        if (kept < 0 || kept > defaultMaxToolResultCharacters + 300) throw new LimitNotHeld("freezes", `the result kept ${kept} characters`);
        return `${kept} characters kept`;
      },
    },
    {
      name: "bash: env -i setsid escape killed on timeout",
      boundMs: 30_000,
      run: async () => {
        if (process.platform !== "linux") return "the descriptor scan needs /proc (Linux)";
        const command = 'env -i setsid sh -c "echo \\$\\$ > cleared.pid; exec sleep 29" & sleep 0.3; wait';
        const result = await callTool(createBashTool({ workspace }), { command, timeout_ms: 1_000 });
        if (!result.content.includes("the command and its child processes were killed")) throw new LimitNotHeld("escapes", `the result does not say its processes were killed: ${result.content.slice(0, 160)}`);
        return expectGone(await readPid(join(workspace, "cleared.pid")), result.content);
      },
    },
    {
      name: "bash: (sleep 25 &) ends with its call",
      boundMs: 30_000,
      run: async () => {
        if (process.platform === "win32") return "no bash on Windows";
        const result = await callTool(createBashTool({ workspace }), { command: "(sleep 25 & echo $! > bg.pid); echo back" });
        return expectGone(await readPid(join(workspace, "bg.pid")), result.content);
      },
    },
    {
      name: 'bash: setsid sh -c "sleep 26" killed on timeout',
      boundMs: 30_000,
      run: async () => {
        if (process.platform !== "linux") return "the marker scan needs /proc (Linux)";
        const command = 'setsid sh -c "echo \\$\\$ > escaped.pid; exec sleep 26" & sleep 0.3; wait';
        const result = await callTool(createBashTool({ workspace }), { command, timeout_ms: 1_000 });
        return expectGone(await readPid(join(workspace, "escaped.pid")), result.content);
      },
    },
    {
      name: "grep with max_results 1000000",
      boundMs: 60_000,
      run: async () => {
        await mkdir(join(workspace, "many"));
        for (let file = 0; file < 5; file += 1) await writeFile(join(workspace, "many", `${file}.txt`), "match this line\n".repeat(40_000));
        const result = await callTool(grep, { pattern: "match", path: "many", max_results: 1_000_000 });
        if (Buffer.byteLength(result.content) > 64 * 1024) throw new LimitNotHeld("freezes", `grep returned ${Buffer.byteLength(result.content)} bytes`);
        return `${Buffer.byteLength(result.content)} bytes returned`;
      },
    },
    {
      // Issue 24, failure 13: converted on the main thread, such a page blocked the process 13 to 45 s.
      name: "web_fetch of a 5 MB page of flat paragraphs (converted on a worker thread, with a time budget)",
      boundMs: 120_000,
      run: async () => {
        const html = `<html><body>${"<p>word word word</p>".repeat(Math.floor((5 * 1024 * 1024 - 100) / 21))}</body></html>`;
        const server = createServer((_request, response) => {
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          response.end(html);
        });
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        try {
          const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
          const result = await callTool(createWebFetchTool({ allowLoopback: true }) as Tool<never>, { url });
          return result.isError ? expectError(result, "not converted") : `${result.content.length} characters of Markdown`;
        } finally {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
      },
    },
    {
      name: "a 200k-character word through compaction",
      boundMs: 60_000,
      run: async () => {
        const word = "QmFzZTY0".repeat(25_000);
        const provider = createScriptedProvider({ turns: (_request, call) => (call === 0 ? `Here: ${word} and src/a.ts` : `Noted ${call}.`) });
        const messages: Message[] = [];
        let stops = "";
        for (const task of ["Send it.", "Again.", "And again.", "Once more."]) {
          const { agent } = await assembleAgent({ provider, system: "You are terse.", tools: [], messages, policies: [createCompression({ contextWindow: 30_000 })] });
          const result = await agent.run(task).result();
          messages.splice(0, messages.length, ...agent.messages);
          stops += `${result.stopReason} `;
        }
        const derived = messages.filter((message) => message.meta.derived !== undefined).length;
        return `runs ended: ${stops.trim()}; ${derived} derived messages (compaction) in the context`;
      },
    },
  ];
}

/**
 * Resource limits, each the original case: what froze the process, grew it without bound or
 * killed it with an uncaught RangeError must now end in bounded time, with the event loop free, as
 * a result or a tool error saying what to do.
 */
export async function runResourceBattery(options: { judgeLag?: boolean; quick?: boolean } = {}): Promise<BatteryResult> {
  const judgeLag = options.judgeLag ?? true;
  // A quick check (npm test runs one) writes 64 MB, not the 1 GB.
  const lineMegabytes = options.quick === true ? 64 : 1024;
  const tally = new BatteryTally("resource-limits");
  const workspace = await mkdtemp(join(tmpdir(), "ctxkit-hardening-resources-"));
  try {
    await mkdir(join(workspace, ".spill"));
    for (const entry of cases(workspace, lineMegabytes)) {
      const outcome = await runTrial(entry.run, entry.boundMs);
      const notHeld = outcome.error instanceof LimitNotHeld ? outcome.error : undefined;
      // A limit that did not hold is booked under its own class, not as a crash (and a freeze once).
      tally.trial(notHeld ? { ...outcome, error: undefined } : outcome, entry.name);
      if (notHeld && !(notHeld.failure === "freezes" && outcome.frozen)) tally.fail(notHeld.failure, `${entry.name}: ${notHeld.message}`);
      const wrong = outcome.error !== undefined && outcome.error instanceof Error && !(outcome.error instanceof ToolError) ? describeError(outcome.error) : undefined;
      const stalled = judgeLag && entry.maxLagMs !== undefined && !outcome.frozen && outcome.lagMs > entry.maxLagMs;
      if (stalled) tally.fail("freezes", `${entry.name}: the event loop was blocked ${Math.round(outcome.lagMs)} ms (at most ${entry.maxLagMs} ms)`);
      const passed = !outcome.frozen && outcome.error === undefined && !stalled;
      const lagBound = entry.maxLagMs === undefined ? "" : judgeLag ? `, at most ${entry.maxLagMs} ms` : ", not judged at --trials";
      tally.namedCase(entry.name, passed, passed || stalled ? `${outcome.value} (${Math.round(outcome.durationMs)} ms, event loop blocked up to ${Math.round(outcome.lagMs)} ms${lagBound})` : (wrong ?? "did not end in time"));
      tally.outcome(passed ? "bounded" : "failed");
    }
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
  return tally.finish();
}
