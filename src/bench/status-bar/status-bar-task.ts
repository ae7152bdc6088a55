import type { StatusBarLimit } from "../../context/status-bar/status-bar-settings.js";
import type { ScriptedTurn } from "../../providers/scripted/scripted-turn.js";
import type { Tool } from "../../tools/tool.js";
import type { Message, RunResult } from "../../types/index.js";

/** A conversation that happened before the measured request, replayed with a scripted model. */
export interface TaskHistory {
  input: string;
  turns: ScriptedTurn[];
  /** Simulated time the history run starts at (ISO). */
  at: string;
  /** Changes the workspace before this history run (a file that changed overnight). */
  before?: (workspace: string) => Promise<void>;
}

export interface TaskSetup {
  system: string;
  tools: Tool[];
  limits?: StatusBarLimit[];
  history?: TaskHistory[];
  /** The measured request. */
  input: string;
  /** Simulated time of the measured request (ISO). */
  at: string;
}

export interface TaskOutcome {
  workspace: string;
  result: RunResult;
  /** What the measured run appended (its request first). */
  messages: readonly Message[];
}

export interface Judgement {
  success: boolean;
  detail: string;
}

/**
 * One task of the status-bar benchmark (seed, experiment 2-9): a workspace, an optional scripted
 * history, a request, and a deterministic judge. `solution` is a scripted model that solves the task,
 * so the offline harness can check the judge and the plumbing without a real model.
 */
export interface StatusBarTask {
  name: string;
  /** What the task measures, in one line. */
  summary: string;
  setup(workspace: string): Promise<TaskSetup>;
  judge(outcome: TaskOutcome): Promise<Judgement>;
  solution(hasTool: (name: string) => boolean): ScriptedTurn[];
}
