import type { PyDict } from "./python/py-value.js";
import { runTauActions } from "./run-tau-actions.js";
import { tauDataHash } from "./tau-data-hash.js";
import type { TauDomain } from "./tau-domain.js";
import type { TauTask } from "./tau-task.js";

export interface TauReward {
  reward: 0 | 1;
  /** Whether the data after the run equals the data after the gold actions. */
  dataMatches: boolean;
  dataHash: string;
  goldDataHash: string;
  /** For tasks with outputs: whether each was said to the user. */
  outputs: Record<string, boolean>;
}

/**
 * τ-bench's reward: 1 when the data the agent left equals (by the reference's hash) the data the
 * gold actions leave on a fresh copy, and every required output string appears in one of the
 * agent's replies to the user (lower-cased, commas removed from the reply).
 */
export function computeTauReward(domain: TauDomain, task: TauTask, finalData: PyDict, replies: readonly string[]): TauReward {
  const dataHash = tauDataHash(finalData);
  const goldDataHash = tauDataHash(runTauActions(domain, task.actions, { skipTerminating: true }).data);
  const normalizedReplies = replies.map((reply) => reply.toLowerCase().replaceAll(",", ""));
  const outputs: Record<string, boolean> = {};
  for (const output of task.outputs) outputs[output] = normalizedReplies.some((reply) => reply.includes(output.toLowerCase()));
  const dataMatches = dataHash === goldDataHash;
  const reward = dataMatches && Object.values(outputs).every(Boolean) ? 1 : 0;
  return { reward, dataMatches, dataHash, goldDataHash, outputs };
}
