import { formatTextTable } from "../../bench/text-table.js";
import { createLlama, createTinyQwen3Gguf } from "../../providers/llama/index.js";
import { commonPrefixTokens } from "../../tokens/common-prefix-tokens.js";
import type { CliIo } from "../cli-io.js";
import { createAgentFromConfig } from "../../config/create-agent-from-config.js";
import { createEventRenderer } from "../render-events.js";
import { resolveConfig, settingValues } from "../resolve-config.js";
import type { TerminalStyle } from "../terminal-style.js";
import { demoSystemPrompt, demoTask } from "./demo-script.js";
import { engineDemoMaxOutputTokens, engineDemoWarningText } from "./engine-demo-warning.js";

// list_dir only: it is read-only and takes no required argument, so the noise model's calls stay
// short (free string arguments from random weights can run to the output limit).
const toolSchedule = [["list_dir"], ["list_dir"], ["list_dir"]];

/**
 * `ctxkit demo --engine`: the demo task on the embedded llama.cpp engine with a generated tiny
 * Qwen3 model (random weights). Its text is noise; the grammar makes its first three turns valid
 * tool calls (only list_dir active, masked in the sampler), the fourth is a plain answer. What is
 * real: the engine, its KV cache, and the reuse it reports, shown per call next to the common
 * token prefix ctxkit predicts from the rendered prompts.
 */
export async function runEngineDemo(io: CliIo, options: { workspace: string; json: boolean; style: TerminalStyle }): Promise<number> {
  const say = (text: string) => {
    if (!options.json) io.stdout.write(text);
  };
  const modelPath = await createTinyQwen3Gguf();
  let call = 0;
  const provider = createLlama({
    modelPath,
    seed: 1,
    contextSize: 8192,
    parallelToolCalls: false,
    maxOutputTokens: engineDemoMaxOutputTokens,
    toolChoice: () => (call < toolSchedule.length ? "required" : "none"),
    activeTools: () => toolSchedule[call++] ?? [],
  });
  say(`${options.style.bold("ctxkit demo --engine")} — the embedded llama.cpp engine on a ${options.style.yellow("generated random-weight model")}: its text is NOISE, the engine and its KV cache are real\n`);
  say(`${options.style.dim(`model: ${modelPath}`)}\n${options.style.dim(`task: ${demoTask}`)}\n\n`);
  const config = resolveConfig({ workspace: options.workspace, tools: "read_file,list_dir,glob,grep", notes: "off", "trust-workspace": true }, {}, { readConfigFiles: false });
  const { agent, session } = await createAgentFromConfig({ workspace: config.workspace, settings: settingValues(config.settings), provider, system: demoSystemPrompt, confirmToolCall: async () => false });
  const renderer = createEventRenderer({ write: say, style: options.style, spinner: false, warningText: engineDemoWarningText });
  let stopReason = "";
  try {
    for await (const event of agent.run(demoTask)) {
      renderer.handle(event);
      if (event.type === "run_end") stopReason = event.stopReason;
    }
  } finally {
    await session.close();
    await provider.dispose();
  }
  const calls = provider.calls.map((record, index) => ({
    call: index + 1,
    promptTokens: record.promptTokens.length,
    predictedReuse: index === 0 ? 0 : commonPrefixTokens(provider.calls[index - 1]!.promptTokens, record.promptTokens),
    reusedTokens: record.reusedTokens,
    evaluatedTokens: record.evaluatedTokens,
    timeToFirstTokenMs: record.timeToFirstTokenMs ?? null,
  }));
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ workspace: options.workspace, modelPath, sessionId: session.id, stopReason, calls }, null, 2)}\n`);
  } else {
    const table = formatTextTable(
      ["call", "prompt tokens", "predicted reuse", "engine reused", "evaluated", "TTFT ms"],
      calls.map((row) => [`${row.call}`, `${row.promptTokens}`, `${row.predictedReuse}`, `${row.reusedTokens}`, `${row.evaluatedTokens}`, `${row.timeToFirstTokenMs ?? "—"}`]),
      { leftColumns: [] },
    );
    say(`\n${table}\n\npredicted reuse = common token prefix of consecutive rendered prompts; engine reused = tokens kept in its KV cache.\n`);
    say(`Run ended: ${stopReason}. Session stored at ${session.path}\n`);
  }
  return stopReason === "final_answer" ? 0 : 1;
}
