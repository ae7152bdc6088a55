import { mkdtemp, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import { renderChatTemplate, toHfChatMessages } from "../../tokens/index.js";
import { parseCommandLine, pickCommonOptions } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { createAgentFromConfig } from "../../config/create-agent-from-config.js";
import { createDemoWorkspace } from "../demo/create-demo-workspace.js";
import { buildDemoReport, formatDemoReport } from "../demo/demo-report.js";
import { demoSystemPrompt, demoTask, demoTurns } from "../demo/demo-script.js";
import { runEngineDemo } from "../demo/run-engine-demo.js";
import { createEventRenderer } from "../render-events.js";
import { resolveConfig, settingValues } from "../resolve-config.js";
import { createTerminalStyle, shouldUseColor } from "../terminal-style.js";
import { refuseExtraArguments } from "../refuse-extra-arguments.js";

export const demoHelp = `Usage: ctxkit demo [--dir <dir> [--force]] [--engine] [--json] [--no-color]

Runs offline, with no model and no key: creates a small code base with a bug and a ~200 KB log,
then drives a real agent run over it with a SCRIPTED model (its turns are written by hand). The
tools, loop, session and request building are real. Afterwards it prints, per model call, the
prompt tokens (Qwen3 chat template, exact Qwen3 tokenizer), the tokens reusable from the previous
call's prefix, the new tokens, and what the call appended.

Options:
  --dir <dir>   where to create the demo workspace (default: a new temporary directory); it must
                be empty or absent, since the demo writes and edits files there
  --force       use --dir even when it holds files (demo files there are overwritten)
  --engine      run the task on the embedded llama.cpp engine (optional package node-llama-cpp)
                with a generated random-weight Qwen3 model instead: NOISE text, a real engine;
                prints the engine's KV reuse per call next to ctxkit's predicted common prefix
  --json        print the per-call table as JSON instead
  --no-color    plain output (colour also follows NO_COLOR and FORCE_COLOR)

Exit codes: 0 done; 1 the demo failed or --dir holds files (without --force); 2 a usage error;
130 interrupted with Ctrl-C.
`;

export const demoOptions = { ...pickCommonOptions("json", "color"), dir: { type: "string" }, force: { type: "boolean" }, engine: { type: "boolean" } } as const;

/** `ctxkit demo`: a real agent run over real files with a scripted model, then the token table. */
export async function demoCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra, positionals } = parseCommandLine(args, demoOptions);
  if (flags.help) {
    io.stdout.write(demoHelp);
    return 0;
  }
  refuseExtraArguments(positionals, 0, "ctxkit demo takes only options (--dir <dir> chooses its folder)");
  const workspace = typeof extra.dir === "string" ? resolve(io.cwd, extra.dir) : await mkdtemp(join(tmpdir(), "ctxkit-demo-"));
  // A file there made the demo fail at its first folder, with advice about --workspace and --data-dir.
  if (await stat(workspace).then((info) => !info.isDirectory(), () => false)) {
    io.stderr.write(`ctxkit demo: --dir ${workspace} is a file; give a folder that is empty or does not exist yet.\n`);
    return 1;
  }
  const existing = await readdir(workspace).catch(() => [] as string[]);
  if (existing.length > 0 && extra.force !== true) {
    io.stderr.write(`ctxkit demo: ${workspace} is not empty (${existing.length} entries); the demo would overwrite files there. Pass an empty or new --dir, or add --force.\n`);
    return 1;
  }
  await createDemoWorkspace(workspace);
  const style = createTerminalStyle(!flags.json && shouldUseColor(io.stdout, flags.color, io.env));
  if (extra.engine === true) return runEngineDemo(io, { workspace, json: flags.json === true, style });
  const say = (text: string) => {
    if (!flags.json) io.stdout.write(text);
  };

  say(`${style.bold("ctxkit demo")} — a real agent run driven by a ${style.yellow("SCRIPTED model")} (no LLM, no network)\n`);
  say(`${style.dim(`workspace: ${workspace}`)}\n${style.dim(`task: ${demoTask}`)}\n\n`);

  const provider = createScriptedProvider({ turns: demoTurns, name: "scripted-demo", model: "scripted-demo" });
  // No config files: the demo is the same offline run on every machine (a user's maxIterations or
  // compression setting would change it or make it fail).
  // The workspace is one the demo just wrote, so it is trusted: its files do not make the context
  // untrusted, and no question is asked (the demo runs offline, without a terminal, in CI).
  const config = resolveConfig({ workspace, tools: "all", yes: true, notes: "off", "trust-workspace": true }, {}, { readConfigFiles: false });
  const { agent, session, mcp } = await createAgentFromConfig({
    workspace: config.workspace,
    settings: settingValues(config.settings),
    provider,
    system: demoSystemPrompt,
    // The scripted model's edit and shell calls are approved automatically, as with --yes.
    confirmToolCall: async () => true,
  });
  const renderer = createEventRenderer({ write: say, style, spinner: false });
  let stopReason = "";
  for await (const event of agent.run(demoTask)) {
    renderer.handle(event);
    if (event.type === "run_end") stopReason = event.stopReason;
  }
  try {
    await session.close();
  } finally {
    // No servers are configured, but the connection still holds an exit listener of the process.
    await mcp.close();
  }

  const counter = await getTokenCounter("qwen3");
  const report = buildDemoReport(provider.requests, (request) =>
    counter.encode!(renderChatTemplate({ messages: toHfChatMessages(request), tools: request.tools, addGenerationPrompt: true })),
  );
  if (flags.json) {
    io.stdout.write(`${JSON.stringify({ workspace, sessionId: session.id, stopReason, ...report }, null, 2)}\n`);
  } else {
    say(`\n${formatDemoReport(report, "Qwen3 chat template, exact Qwen3 tokens")}\n\n`);
    say(`Run ended: ${stopReason}. Session stored at ${session.path}\n`);
    say(`See it with: ctxkit sessions show ${session.id} --workspace ${workspace}\n`);
  }
  return stopReason === "final_answer" ? 0 : 1;
}
