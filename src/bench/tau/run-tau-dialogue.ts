import { assembleAgent } from "../../agents/assemble-agent.js";
import type { Provider, ProviderEvent } from "../../providers/provider.js";
import { addUsage, emptyUsage, type GenerationSettings, type Message, type SystemPrompt, type ToolDefinition, type Usage } from "../../types/index.js";
import { computeTauReward, type TauReward } from "./compute-tau-reward.js";
import { createTauTools, type TauToolCall } from "./create-tau-tools.js";
import { terminateToolNames } from "./run-tau-actions.js";
import type { TauDomain } from "./tau-domain.js";
import type { TauTask } from "./tau-task.js";
import { stopMarker, type TauUser } from "./tau-user.js";
import { createRepeatedCallLimit } from "../../tools/create-repeated-call-limit.js";

export interface TauDialogueOptions {
  domain: TauDomain;
  task: TauTask;
  provider: Provider;
  user: TauUser;
  /** The agent's system prompt (default: the domain's policy, as the reference sends it). */
  system?: string | SystemPrompt;
  describeTool?: (definition: ToolDefinition) => ToolDefinition;
  settings?: GenerationSettings;
  /** Model calls per dialogue (the reference's max_num_steps, default 30). */
  maxSteps?: number;
}

export interface TauDialogueResult {
  /** The agent's trajectory, as ctxkit sent and stored it. */
  messages: readonly Message[];
  calls: TauToolCall[];
  /** The agent's replies to the user (assistant turns without a tool call). */
  replies: string[];
  reward: TauReward;
  /** Why the dialogue ended: the user stopped, the agent transferred, steps ran out, or the run failed. */
  ending: "user_stop" | "transfer" | "max_steps" | "run_error";
  usage: Usage;
  modelCalls: number;
  error?: { code: string; message: string };
}

/**
 * One τ-bench dialogue through the ctxkit loop: a fresh copy of the data, the domain's tools as
 * ctxkit tools, the user's messages as runs of one agent (so the trajectory carries over), until
 * the user says `###STOP###`, a terminating tool ran, or the step budget is spent. Then the reward.
 */
export async function runTauDialogue(options: TauDialogueOptions): Promise<TauDialogueResult> {
  const data = options.domain.freshData();
  const calls: TauToolCall[] = [];
  const tools = createTauTools(options.domain, data, {
    onCall: (call) => calls.push(call),
    ...(options.describeTool ? { describe: options.describeTool } : {}),
  });
  const maxSteps = options.maxSteps ?? 30;
  const budget = limitModelCalls(options.provider, maxSteps);
  const { agent } = await assembleAgent({
    provider: budget.provider,
    system: options.system ?? options.domain.wiki,
    tools,
    prefixGuard: false,
    ...(options.settings ? { settings: options.settings } : {}),
    runtime: { maxIterations: maxSteps + 1 },
    policies: [createRepeatedCallLimit({ limit: 1_000_000 })],
  });
  let usage = emptyUsage();
  let ending: TauDialogueResult["ending"] = "max_steps";
  let error: TauDialogueResult["error"];
  let userMessage = await options.user.start();
  for (;;) {
    const result = await agent.run(userMessage).result();
    usage = addUsage(usage, result.usage);
    if (calls.some((call) => terminateToolNames.has(call.name))) {
      ending = "transfer";
      break;
    }
    if (budget.refused()) break;
    if (result.stopReason !== "final_answer") {
      ending = result.stopReason === "max_iterations" ? "max_steps" : "run_error";
      if (result.error) error = result.error;
      break;
    }
    userMessage = await options.user.reply(result.finalText);
    if (userMessage.includes(stopMarker)) {
      ending = "user_stop";
      break;
    }
    if (budget.calls() >= maxSteps) break;
  }
  const replies = agentReplies(agent.messages);
  const computed = computeTauReward(options.domain, options.task, data, replies);
  // The reference computes a reward only when the dialogue ends (user stop or transfer); a dialogue
  // cut off by the step limit or a failure scores 0.
  const reward = ending === "user_stop" || ending === "transfer" ? computed : { ...computed, reward: 0 as const };
  return { messages: agent.messages, calls, replies, reward, ending, usage, modelCalls: budget.calls(), ...(error ? { error } : {}) };
}

function agentReplies(messages: readonly Message[]): string[] {
  return messages.flatMap((message) => {
    if (message.role !== "assistant" || message.content.some((part) => part.type === "tool_call")) return [];
    return [message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("")];
  });
}

/**
 * The reference's step limit counts model calls across the whole dialogue. Past it, the provider
 * answers with an empty final turn instead of calling the model, which ends the current run.
 */
function limitModelCalls(provider: Provider, limit: number): { provider: Provider; calls: () => number; refused: () => boolean } {
  let calls = 0;
  let refused = false;
  const limited: Provider = {
    specificationVersion: provider.specificationVersion,
    name: provider.name,
    model: provider.model,
    serialize: (request) => provider.serialize(request),
    stream(request, signal) {
      if (calls >= limit) {
        refused = true;
        return emptyTurn();
      }
      calls++;
      return provider.stream(request, signal);
    },
  };
  return { provider: limited, calls: () => calls, refused: () => refused };
}

async function* emptyTurn(): AsyncGenerator<ProviderEvent> {
  yield { type: "start" };
  yield { type: "done", response: { content: [], stopReason: "stop" }, usage: emptyUsage() };
}
