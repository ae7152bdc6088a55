import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { INSPECT_TOKENIZERS, loadOpenAIToolsFile, type InspectTokenizer } from "../../inspect/index.js";
import { CtxkitError } from "../../types/index.js";
import { createViewSource, isOtlpTraceFile, readOtlpTraceFile, startViewServer, type TraceFileView } from "../../web/index.js";
import { parseCommandLine, pickCommonOptions } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { resolveTranscriptInput, transcriptInputError } from "../resolve-transcript-input.js";

export const viewHelp = `Usage: ctxkit view <session-id | file | trace.json…> [--port <n>] [--open | --no-open] [--no-auth] [--tokenizer <name>]
                  [--tools <file>] [--workspace <dir>] [--data-dir <dir> | --database-url <url>]

Opens a local page that shows a ctxkit session or another agent's transcript (every format
'ctxkit inspect' reads) call by call: a timeline of the prompts stacked by layer (system, tools,
history, tail) split into reusable and new tokens, with cache breaks, compactions and cost; each
call's prompt as the model saw it with the reusable prefix shaded and the first divergent token
marked (a prompt over 1,000,000 characters is cut to its start, the part around that token and
its end); the diff between two calls; and the findings. A session still being written updates live.

An OpenTelemetry trace file (OTLP JSON, as the collector's file exporter writes it: one export
request per line, or one request as a whole file) is shown as its span tree with timings and the
gen_ai.* and ctxkit.* attributes. Given with the session it traced, each chat span links to its call.

The server listens on 127.0.0.1 only. The first line printed is the page's URL, with a random
token every request must carry; it serves until stopped (Ctrl-C).

Options:
  --port <n>           port (default 0: a free one)
  --open, --no-open    open the page in the browser (default: when run in a terminal)
  --no-auth            no token (anyone on this machine can then read the prompts)
  --tokenizer <name>   qwen3 (default: exact, the prompt shown token by token; a large run first
                       shows estimates while the exact counts are computed), o200k, estimate
                       (the prompt is then shaded by its character prefix)
  --tools <file>       OpenAI tool schemas for formats that do not record them (τ-bench, Claude Code, Codex)
  --workspace <dir>, --data-dir <dir>   where to find a session given by id
  --database-url <url>                  find it in PostgreSQL instead (default: CTXKIT_DATABASE_URL)

Exit codes: 0 stopped with Ctrl-C (the page is served until then); 1 nothing could be read;
2 a usage error.
`;

export const viewOptions = {
  ...pickCommonOptions("workspace", "data-dir", "database-url", "tools"),
  port: { type: "string", number: { integer: true, min: 0, max: 65_535 } },
  open: { type: "boolean" },
  auth: { type: "boolean" },
  tokenizer: { type: "string" },
} as const;

/** `ctxkit view`: the context viewer in the browser, served until the process is stopped. */
export async function viewCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals, extra } = parseCommandLine(args, viewOptions);
  if (flags.help) {
    io.stdout.write(viewHelp);
    return 0;
  }
  if (positionals.length === 0) {
    io.stderr.write(`ctxkit view: give a session id or transcript files.\n\n${viewHelp}`);
    return 2;
  }
  const port = (extra.port as number | undefined) ?? 0;
  // Checked before any file is read: a mistyped value is a usage error whatever the files hold.
  const tokenizer = extra.tokenizer ?? "qwen3";
  if (typeof tokenizer !== "string" || !(INSPECT_TOKENIZERS as readonly string[]).includes(tokenizer)) {
    throw new CtxkitError("usage_invalid", `--tokenizer must be one of ${INSPECT_TOKENIZERS.join(", ")}; got '${String(tokenizer)}'.`);
  }
  const inputs = (await Promise.all(positionals.map((item) => resolveTranscriptInput(item, flags, io)))).map((input) => {
    if ("reason" in input) throw transcriptInputError(input);
    return input.file;
  });
  const traceFlags = await Promise.all(inputs.map((file) => isOtlpTraceFile(file).catch(() => false)));
  const files = inputs.filter((_, index) => !traceFlags[index]);
  const traces: TraceFileView[] = await Promise.all(inputs.filter((_, index) => traceFlags[index]).map((file) => readOtlpTraceFile(file)));
  for (const trace of traces) {
    for (const problem of trace.problems) io.stderr.write(`ctxkit view: ${trace.file}: ${problem}\n`);
    if (trace.spans.length === 0) {
      io.stderr.write(`ctxkit view: ${trace.file}: no span could be read; an OTLP JSON trace export (resourceSpans → scopeSpans → spans) was expected.\n`);
      return 1;
    }
  }
  const tools = flags.tools === undefined ? undefined : loadOpenAIToolsFile(resolve(io.cwd, flags.tools));
  // Exact counts in a worker thread: the page opens at once with estimates and updates itself.
  const source = await createViewSource(files, { tokenizer: tokenizer as InspectTokenizer, exactCounts: "background", exactCountsStart: "when-asked", ...(tools === undefined ? {} : { tools }) });
  if (source.runs().length === 0 && traces.length === 0) {
    for (const problem of source.problems()) io.stderr.write(`ctxkit view: ${problem.file}${problem.line === undefined ? "" : `:${problem.line}`}: ${problem.reason}\n`);
    io.stderr.write("ctxkit view: no transcript could be read.\n");
    await source.close();
    return 1;
  }
  const server = await startViewServer({ source, port, auth: extra.auth !== false, traces }).catch(async (error: unknown) => {
    await source.close();
    // The library says "choose another port"; here the way to choose one is the flag.
    if (error instanceof CtxkitError && (error.code === "port_in_use" || error.code === "port_not_permitted")) {
      const reason = error.code === "port_in_use" ? "is in use" : "may not be used by this user";
      throw new CtxkitError(error.code, `Port ${port} on 127.0.0.1 ${reason}; choose another port (--port), or 0 for a free one.`, { cause: error });
    }
    throw error;
  });
  io.stdout.write(`${server.url}\n`);
  const calls = source.runs().reduce((total, run) => total + run.imported.calls.length, 0);
  const spans = traces.reduce((total, trace) => total + trace.spans.length, 0);
  io.stdout.write(`ctxkit view: ${source.runs().length} run${source.runs().length === 1 ? "" : "s"}, ${calls} calls${traces.length > 0 ? `, ${spans} spans` : ""}; stop with Ctrl-C.\n`);
  for (const problem of source.problems()) io.stderr.write(`ctxkit view: ${problem.file}${problem.line === undefined ? "" : `:${problem.line}`}: ${problem.reason}\n`);
  if (extra.open ?? io.stdout.isTTY === true) openInBrowser(server.url);

  await new Promise<void>((resolvePromise) => {
    process.once("SIGINT", resolvePromise);
    process.once("SIGTERM", resolvePromise);
  });
  // Not awaited: the counting thread is stopped with the process, which need not wait for it.
  void source.close();
  await server.close();
  return 0;
}

/** Best effort: a machine without a desktop still has the printed URL. */
function openInBrowser(url: string): void {
  const [command, ...args] = process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  const child = spawn(command!, args, { stdio: "ignore", detached: true });
  child.on("error", () => undefined);
  child.unref();
}
