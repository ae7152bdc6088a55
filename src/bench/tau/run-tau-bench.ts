import { createHash } from "node:crypto";
import type { Provider } from "../../providers/provider.js";
import { estimateCost, findModelPricing } from "../../tokens/pricing.js";
import { addUsage, emptyUsage, type GenerationSettings, type Usage } from "../../types/index.js";
import { createLlmTauUser } from "./create-llm-tau-user.js";
import { passHatK } from "./pass-hat-k.js";
import { runTauDialogue } from "./run-tau-dialogue.js";
import { tauArm, type TauArmName } from "./tau-arms.js";
import type { TauDomain } from "./tau-domain.js";
import type { TauTask } from "./tau-task.js";

export interface TauBenchOptions {
  domain: TauDomain;
  tasks: readonly TauTask[];
  /** Indexes into `tasks` (e.g. 0–9). */
  taskIndices: readonly number[];
  trials: number;
  arms: readonly TauArmName[];
  agentProvider: Provider;
  userProvider: Provider;
  settings?: GenerationSettings;
  onDialogue?: (result: TauBenchDialogue) => void;
}

export interface TauBenchDialogue {
  arm: TauArmName;
  task: number;
  trial: number;
  reward: number;
  ending: string;
  modelCalls: number;
  usage: Usage;
  userUsage: Usage;
}

export interface TauBenchArmReport {
  arm: TauArmName;
  /** sha256 of the system prompt and tool definitions this arm sends. */
  promptHash: string;
  successes: number;
  dialogues: number;
  passHatK: Record<string, number>;
  usage: Usage;
  /** Share of the agent's prompt tokens served from the provider's cache. */
  cachedShare: number;
  /** Agent cost in dollars from the pricing catalog, when the model is in it. */
  cost: number | null;
}

export interface TauBenchReport {
  arms: TauBenchArmReport[];
  dialogues: TauBenchDialogue[];
}

/** Runs every task × trial × arm as a live dialogue (agent model against a user-simulator model) and scores it. */
export async function runTauBench(options: TauBenchOptions): Promise<TauBenchReport> {
  const dialogues: TauBenchDialogue[] = [];
  const arms: TauBenchArmReport[] = [];
  const pricing = findModelPricing(options.agentProvider.model);
  for (const armName of options.arms) {
    const arm = tauArm(armName, options.domain);
    const system = arm.system(options.domain.wiki);
    const tools = [...options.domain.definitions.values()].map((definition) => (arm.describeTool ? arm.describeTool(definition) : definition));
    const promptHash = createHash("sha256").update(JSON.stringify({ system, tools })).digest("hex");
    const armDialogues: TauBenchDialogue[] = [];
    for (const taskIndex of options.taskIndices) {
      const task = options.tasks[taskIndex];
      if (!task) continue;
      for (let trial = 0; trial < options.trials; trial++) {
        const user = createLlmTauUser(options.userProvider, task.instruction, options.settings);
        const result = await runTauDialogue({
          domain: options.domain,
          task,
          provider: options.agentProvider,
          user,
          system,
          ...(arm.describeTool ? { describeTool: arm.describeTool } : {}),
          ...(options.settings ? { settings: options.settings } : {}),
        });
        const dialogue = { arm: armName, task: taskIndex, trial, reward: result.reward.reward, ending: result.ending, modelCalls: result.modelCalls, usage: result.usage, userUsage: user.usage() };
        armDialogues.push(dialogue);
        options.onDialogue?.(dialogue);
      }
    }
    const usage = armDialogues.reduce((total, dialogue) => addUsage(total, dialogue.usage), emptyUsage());
    const perTask = options.taskIndices.map((task) => {
      const ofTask = armDialogues.filter((dialogue) => dialogue.task === task);
      return { successes: ofTask.filter((dialogue) => dialogue.reward === 1).length, trials: ofTask.length };
    });
    const passes: Record<string, number> = {};
    for (let k = 1; k <= options.trials; k++) passes[`pass^${k}`] = passHatK(perTask, k);
    arms.push({
      arm: armName,
      promptHash,
      successes: armDialogues.filter((dialogue) => dialogue.reward === 1).length,
      dialogues: armDialogues.length,
      passHatK: passes,
      usage,
      cachedShare: usage.inputTokens === 0 ? 0 : usage.cachedInputTokens / usage.inputTokens,
      cost: pricing ? estimateCost(usage, pricing) : null,
    });
    dialogues.push(...armDialogues);
  }
  return { arms, dialogues };
}
