import { createLazyRequire } from "../../types/lazy-require.js";
import path from "node:path";
import { defineTool, ToolError, type Tool, type ToolOutput } from "../tool.js";
import {
  CommandProcesses,
  MarkerDescriptor,
  commandMarkerVariable,
  createCommandMarker,
  defaultProcessSearchBudget,
  describeLeftProcesses,
  describeSearchCut,
  describeSurvivors,
  type LeftProcess,
  type ProcessSearchBudget,
  type SearchCut,
} from "./command-processes.js";
import { formatByteSize } from "./file-content.js";
import { HeadTailOutput } from "./head-tail-output.js";
import { bashArguments, createLimitMarker, releaseLimitMarker } from "./limit-marker.js";
import { OutputSpill } from "./output-spill.js";
import { describeBinaryOutput, looksBinary } from "./binary-output.js";
import { checkWorkspaceOption } from "./workspace-option.js";

// node:child_process (with the net and dgram modules it loads) is required by the first command,
// not when the tools are created: some 3 ms of every CLI run's start, before its first request.
const requireFromHere = createLazyRequire(import.meta.url);
const childProcess = () => requireFromHere("node:child_process") as typeof import("node:child_process");

export interface BashArgs {
  command: string;
  timeout_ms?: number;
}

export interface BashToolOptions {
  workspace: string;
  /** Default timeout of one command (default 120 s). */
  timeoutMs?: number;
  /** Largest `timeout_ms` the model may ask for (default 10 min). */
  maxTimeoutMs?: number;
  /** Output kept per call, head and tail (default 30 KB). */
  maxOutputBytes?: number;
  /**
   * Where the whole output of a command that overflows `maxOutputBytes` is streamed as it arrives
   * (a file per call; the result names it), so the cut middle can still be read. Off by default.
   */
  spillDirectory?: string;
  /** Most bytes saved per call in `spillDirectory` (default 64 MB); the result says when more came. */
  maxSpillBytes?: number;
  /** How far each search for the processes a command left goes (default: 500 ms or 5,000 processes checked). */
  processSearchBudget?: ProcessSearchBudget;
}

/** After the shell exits, how long to wait for background processes still holding its pipes. */
const pipeDrainMs = 500;

type Ending = "exited" | "timeout" | "aborted";

export function createBashTool(options: BashToolOptions): Tool<BashArgs> {
  checkWorkspaceOption("createBashTool", options);
  const defaultTimeoutMs = options.timeoutMs ?? 120_000;
  const maxTimeoutMs = Math.max(options.maxTimeoutMs ?? 600_000, defaultTimeoutMs);
  const maxOutputBytes = options.maxOutputBytes ?? 30 * 1024;
  const workspace = path.resolve(options.workspace);
  const searchBudget = options.processSearchBudget ?? defaultProcessSearchBudget;
  return defineTool<BashArgs>({
    name: "bash",
    description:
      "Run a shell command with `/bin/bash -c` in the workspace directory and return `exit code: N` followed " +
      "by stdout and stderr interleaved as they were written. Use it for builds, tests, git and other programs; " +
      "prefer read_file, grep, glob and edit_file for reading, searching and changing files. Each call starts " +
      "a fresh shell (cd and exports do not carry over; chain steps with &&) with no stdin, so interactive " +
      `programs get end-of-file. The command is killed after timeout_ms (default ${defaultTimeoutMs} ms, at ` +
      `most ${maxTimeoutMs} ms). Output over ${formatByteSize(maxOutputBytes)} keeps its start and end and ` +
      'drops the middle, so pipe long output through grep, head or tail. Example: {"command": "npm test 2>&1 | ' +
      'tail -n 40", "timeout_ms": 300000}',
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "The bash command line to run in the workspace directory." },
        timeout_ms: {
          type: "integer",
          minimum: 1,
          maximum: maxTimeoutMs,
          description: `Milliseconds before the command is killed (default ${defaultTimeoutMs}).`,
        },
      },
      required: ["command"],
      additionalProperties: false,
    },
    parallelSafe: false,
    requiresConfirmation: true,
    source: "workspace",
    risk: "exec",
    // The command's own timeout ends it first and reports the output gathered so far.
    timeoutMs: maxTimeoutMs + 10_000,
    async execute(args, context) {
      if (context.signal.aborted) {
        throw new ToolError("failed", "The command was not run because the call was aborted before it started.");
      }
      const timeoutMs = Math.min(maxTimeoutMs, Math.max(1, Math.floor(args.timeout_ms ?? defaultTimeoutMs)));
      const output = new HeadTailOutput(maxOutputBytes);
      const spill = options.spillDirectory === undefined ? undefined : new OutputSpill(options.spillDirectory, `bash-${context.toolCallId}`, options.maxSpillBytes ?? 64 * 1024 * 1024);
      let result: CommandResult;
      try {
        result = await runCommand(args.command, workspace, timeoutMs, context.signal, output, spill, searchBudget);
      } finally {
        await spill?.close();
      }
      const formatted = formatResult(result, timeoutMs, output, searchBudget);
      const saved = spill?.describe(output.totalBytes);
      return saved === undefined ? formatted : { ...formatted, content: `${formatted.content}\n${saved}` };
    },
  });
}

interface CommandResult {
  ending: Ending;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Processes the command started that were still running when it ended or was killed. */
  left: LeftProcess[];
  /** Processes it started that a kill did not end (the result must not say they were killed). */
  survivors: LeftProcess[];
  /** The last search for its processes stopped at its budget: some may be running unseen. */
  searchCut: SearchCut | undefined;
}

function runCommand(
  command: string,
  workspace: string,
  timeoutMs: number,
  signal: AbortSignal,
  output: HeadTailOutput,
  spill: OutputSpill | undefined,
  searchBudget: ProcessSearchBudget,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    // A session and process group of its own (`detached`), so a timeout, an abort or the end of the
    // shell kills what the command started; the markers find what left the group (setsid): the
    // variable, fd 3 for what also cleared its environment (env -i), and a resource limit for what
    // closed its descriptors too.
    const marker = createCommandMarker();
    const descriptor = new MarkerDescriptor(marker);
    const limitMarker = createLimitMarker();
    const child = childProcess().spawn("/bin/bash", bashArguments(command, limitMarker), {
      cwd: workspace,
      env: { ...process.env, [commandMarkerVariable]: marker },
      detached: true,
      stdio: ["ignore", "pipe", "pipe", descriptor.fd ?? "ignore"],
    });
    descriptor.spawned();
    // Both are pipes (stdio above); the fourth entry only hides that from the types.
    const stdout = child.stdout!;
    const stderr = child.stderr!;
    const processes = child.pid === undefined ? undefined : new CommandProcesses(child.pid, marker, limitMarker, searchBudget);
    let ending: Ending = "exited";
    let drainTimer: NodeJS.Timeout | undefined;
    const left = new Map<number, LeftProcess>();
    // Only a shell that ended by itself has processes "left": after a timeout or an abort the
    // result already says the command and everything it started were killed.
    const killEverything = (): void => {
      const killed = processes?.killAll() ?? [];
      if (ending === "exited") for (const entry of killed) left.set(entry.pid, entry);
    };
    const killGroup = (reason: Ending): void => {
      if (ending === "exited") ending = reason;
      killEverything();
    };
    const timeoutTimer = setTimeout(() => killGroup("timeout"), timeoutMs);
    const onAbort = (): void => killGroup("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    let finished = false;
    const finish = (code: number | null, exitSignal: NodeJS.Signals | null): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timeoutTimer);
      clearTimeout(drainTimer);
      signal.removeEventListener("abort", onAbort);
      // Whatever is still running now was started by this call and outlived it: end it and say so.
      killEverything();
      const survivors = processes?.survivors() ?? [];
      const searchCut = processes?.lastSearchCut;
      processes?.release();
      if (limitMarker !== undefined) releaseLimitMarker(limitMarker);
      resolve({ ending, code, signal: exitSignal, left: [...left.values()], survivors, searchCut });
    };
    const take = (chunk: Buffer): void => {
      if (spill !== undefined && !spill.started && output.wouldOverflow(chunk)) spill.start(output.keptBytes());
      output.append(chunk);
      if (spill?.started && !spill.write(chunk)) {
        // The file lags behind the command: hold the pipes (the command blocks) rather than buffer in memory.
        stdout.pause();
        stderr.pause();
        spill.onDrain(() => {
          stdout.resume();
          stderr.resume();
        });
      }
    };
    stdout.on("data", take);
    stderr.on("data", take);
    child.once("error", (error) => {
      processes?.release();
      if (limitMarker !== undefined) releaseLimitMarker(limitMarker);
      clearTimeout(timeoutTimer);
      signal.removeEventListener("abort", onAbort);
      reject(new ToolError("failed", `Could not start /bin/bash in ${workspace}: ${error.message}`));
    });
    child.once("exit", (code, exitSignal) => {
      // The shell is done: background processes of the call (`(sleep 25 &)`) end with it, which
      // also closes the pipes they held.
      killEverything();
      drainTimer = setTimeout(() => {
        stdout.destroy();
        stderr.destroy();
        finish(code, exitSignal);
      }, pipeDrainMs);
    });
    child.once("close", finish);
  });
}

function formatResult(result: CommandResult, timeoutMs: number, output: HeadTailOutput, searchBudget: ProcessSearchBudget): ToolOutput {
  const formatted = formatEnding(result, timeoutMs, output);
  const survivors = new Set(result.survivors.map((entry) => entry.pid));
  const notes = [
    describeLeftProcesses(result.left.filter((entry) => !survivors.has(entry.pid))),
    describeSurvivors(result.survivors),
    describeSearchCut(result.searchCut, searchBudget),
  ].filter((note) => note !== undefined);
  return notes.length === 0 ? formatted : { ...formatted, content: `${formatted.content}\n${notes.join("\n")}` };
}

function formatEnding(result: CommandResult, timeoutMs: number, output: HeadTailOutput): ToolOutput {
  const shown = output.totalBytes === 0 ? "(no output)" : output.toString();
  const text = looksBinary(shown) ? describeBinaryOutput(output.totalBytes) : shown;
  // "Killed" only of what was: a process a kill did not end is named below the output instead.
  const killed =
    result.survivors.length > 0
      ? "the command was killed, but not every process it started"
      : result.searchCut !== undefined
        ? "the command and the child processes found were killed"
        : "the command and its child processes were killed";
  if (result.ending === "timeout") {
    return { content: `exit code: none (timed out after ${timeoutMs} ms; ${killed})\n${text}`, isError: true };
  }
  if (result.ending === "aborted") {
    return { content: `exit code: none (aborted; ${killed})\n${text}`, isError: true };
  }
  if (result.code === null) {
    return { content: `exit code: none (killed by ${result.signal ?? "a signal"})\n${text}`, isError: true };
  }
  return { content: `exit code: ${result.code}\n${text}`, isError: result.code !== 0 };
}
