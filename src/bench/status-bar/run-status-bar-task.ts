import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStatusBar } from "../../context/status-bar/create-status-bar.js";
import { detectSystemState } from "../../agents/detect-system-state.js";
import { assembleAgent } from "../../agents/assemble-agent.js";
import type { Provider } from "../../providers/provider.js";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import type { Message, Usage } from "../../types/index.js";
import { armOptions, type StatusBarArm } from "./status-bar-arms.js";
import type { StatusBarTask } from "./status-bar-task.js";

export interface TaskRunResult {
  task: string;
  arm: StatusBarArm;
  success: boolean;
  detail: string;
  stopReason: string;
  iterations: number;
  usage: Usage;
}

/** A clock that advances one second per reading and can jump to a given time (a simulated day). */
function createSimulatedClock(): { clock: () => Date; set: (iso: string) => void } {
  let time = 0;
  return { clock: () => new Date((time += 1000)), set: (iso) => void (time = Date.parse(iso)) };
}

/**
 * Runs one task under one arm: a fresh workspace, the task's history replayed with a scripted model
 * (with this arm's status bar, so its results carry this arm's metadata), then the measured request
 * with `provider` (or the task's scripted solution when `provider` is absent), then the judge.
 */
export async function runStatusBarTask(task: StatusBarTask, arm: StatusBarArm, options: { provider?: Provider; maxIterations?: number } = {}): Promise<TaskRunResult> {
  const workspace = await mkdtemp(join(tmpdir(), `ctxkit-status-bar-${task.name}-`));
  try {
    const setup = await task.setup(workspace);
    const { clock, set } = createSimulatedClock();
    const switches = armOptions(arm);
    const statusBar = createStatusBar({ ...switches, ...(setup.limits ? { limits: setup.limits } : {}), environment: detectSystemState(workspace) });
    const tools = setup.tools;
    const agentFor = async (provider: Provider, messages: Message[]) => {
      const { agent } = await assembleAgent({
        provider,
        system: setup.system,
        tools,
        messages,
        policies: [statusBar],
        confirmToolCall: async () => true,
        runtime: { maxIterations: options.maxIterations ?? 15, clock },
      });
      return agent;
    };

    let messages: Message[] = [];
    for (const entry of setup.history ?? []) {
      set(entry.at);
      await entry.before?.(workspace);
      const agent = await agentFor(createScriptedProvider({ turns: entry.turns }), messages);
      await agent.run(entry.input).result();
      messages = [...agent.messages];
    }
    set(setup.at);
    const hasTool = (name: string) => tools.some((tool) => tool.name === name);
    const provider = options.provider ?? createScriptedProvider({ turns: task.solution(hasTool) });
    const result = await (await agentFor(provider, messages)).run(setup.input).result();
    const judgement = await task.judge({ workspace, result, messages: result.messages });
    return { task: task.name, arm, ...judgement, stopReason: result.stopReason, iterations: result.iterations, usage: result.usage };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
