import { createReplayProvider } from "../../providers/replay/create-replay-provider.js";
import type { SystemPrompt, ToolDefinition } from "../../types/index.js";
import { runTauDialogue } from "./run-tau-dialogue.js";
import type { TauDomain } from "./tau-domain.js";
import type { RecordedTauDialogue } from "./tau-trajectories.js";
import { createScriptedTauUser } from "./tau-user.js";

export interface TauOutputDifference {
  taskId: number;
  trial: number;
  /** The position of the call in the dialogue (0-based). */
  call: number;
  tool: string;
  recorded: string;
  /** What ctxkit's tool returned, or undefined when the call was never made. */
  reproduced: string | undefined;
}

export interface TauReplayDialogue {
  taskId: number;
  trial: number;
  recordedReward: number;
  reward: number;
  toolCalls: number;
  outputsMatched: number;
}

export interface TauReplayReport {
  dialogues: number;
  toolCalls: number;
  outputsMatched: number;
  rewardsMatched: number;
  differences: TauOutputDifference[];
  rewardDifferences: TauReplayDialogue[];
  perDialogue: TauReplayDialogue[];
}

export interface ReplayTauOptions {
  /** Called after each dialogue: how many are done of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Replaces the recorded system prompt (an experiment arm checked for plumbing). */
  system?: (recorded: string) => string | SystemPrompt;
  describeTool?: (definition: ToolDefinition) => ToolDefinition;
}

/**
 * Replays recorded dialogues through the ctxkit loop: the recorded assistant turns as the model
 * (replay provider), the recorded user turns as the user, ctxkit's τ-bench tools executing every
 * call on fresh data. Compares each tool message ctxkit produced with the recorded one, and the
 * reward ctxkit computes with the recorded reward.
 */
export async function replayTauDialogues(domain: TauDomain, dialogues: readonly RecordedTauDialogue[], options: ReplayTauOptions = {}): Promise<TauReplayReport> {
  const report: TauReplayReport = { dialogues: 0, toolCalls: 0, outputsMatched: 0, rewardsMatched: 0, differences: [], rewardDifferences: [], perDialogue: [] };
  for (const dialogue of dialogues) {
    const recordedSystem = dialogue.messages[0]?.role === "system" ? (dialogue.messages[0].content ?? "") : domain.wiki;
    const conversation = dialogue.messages[0]?.role === "system" ? dialogue.messages.slice(1) : dialogue.messages;
    // One empty turn after the recording: the loop asks the model again after a final tool result
    // (a transfer, or the step limit), where the recorded dialogue had already ended.
    const provider = createReplayProvider({ transcript: [...conversation, { role: "assistant", content: "" }], model: "replay" });
    const user = createScriptedTauUser(conversation.filter((message) => message.role === "user").map((message) => message.content ?? ""));
    const result = await runTauDialogue({
      domain,
      task: dialogue.task,
      provider,
      user,
      system: options.system ? options.system(recordedSystem) : recordedSystem,
      ...(options.describeTool ? { describeTool: options.describeTool } : {}),
    });
    const recordedTools = conversation.filter((message) => message.role === "tool");
    const reproducedTools = result.messages.filter((message) => message.role === "tool");
    let matched = 0;
    recordedTools.forEach((recorded, index) => {
      const reproduced = reproducedTools[index]?.content;
      if (reproduced === recorded.content) matched++;
      else report.differences.push({ taskId: dialogue.taskId, trial: dialogue.trial, call: index, tool: recorded.name ?? "", recorded: recorded.content ?? "", reproduced });
    });
    const entry: TauReplayDialogue = { taskId: dialogue.taskId, trial: dialogue.trial, recordedReward: dialogue.reward, reward: result.reward.reward, toolCalls: recordedTools.length, outputsMatched: matched };
    report.dialogues++;
    report.toolCalls += recordedTools.length;
    report.outputsMatched += matched;
    if (entry.reward === entry.recordedReward) report.rewardsMatched++;
    else report.rewardDifferences.push(entry);
    report.perDialogue.push(entry);
    options.onProgress?.(report.dialogues, dialogues.length);
  }
  return report;
}
