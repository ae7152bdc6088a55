import { CtxkitError } from "../../types/index.js";
import { parsePythonJson } from "./python/parse-python-json.js";
import { toJavaScript } from "./python/py-value.js";
import { parseTauTask, type TauTask } from "./tau-task.js";

/** One recorded τ-bench dialogue (`historical_trajectories/*.json`): the task, its messages, its reward. */
export interface RecordedTauDialogue {
  taskId: number;
  trial: number;
  reward: number;
  /** The task as it was when the dialogue was recorded (instructions and gold actions change between versions). */
  task: TauTask;
  /** The OpenAI chat messages: system (the policy), user, assistant with `tool_calls`, tool. */
  messages: RecordedChatMessage[];
}

export interface RecordedChatMessage {
  role: string;
  content?: string | null;
  tool_calls?: Array<{ id: string; type?: string; function: { name: string; arguments: string } }> | null;
  tool_call_id?: string;
  name?: string;
}

/** Reads a trajectories file `[{task_id, trial, reward, info: {task}, traj}]`. */
export function parseTauTrajectories(text: string, file: string): RecordedTauDialogue[] {
  const value = parsePythonJson(text);
  if (!Array.isArray(value)) throw invalid(file, "the file is not a JSON list of dialogues");
  return value.map((entry, index) => {
    const where = `${file}[${index}]`;
    const info = entry instanceof Map ? entry.get("info") : undefined;
    const traj = entry instanceof Map ? entry.get("traj") : undefined;
    if (!(entry instanceof Map) || !(info instanceof Map) || !Array.isArray(traj)) throw invalid(where, "a dialogue needs info.task and traj");
    return {
      taskId: Number(toJavaScript(entry.get("task_id") ?? -1)),
      trial: Number(toJavaScript(entry.get("trial") ?? 0)),
      reward: Number(toJavaScript(entry.get("reward") ?? 0)),
      task: parseTauTask(info.get("task") ?? null, `${where}.info.task`),
      messages: toJavaScript(traj) as RecordedChatMessage[],
    };
  });
}

function invalid(where: string, problem: string): CtxkitError {
  return new CtxkitError("transcript_invalid", `${where}: ${problem}. Expected a τ-bench trajectories file [{task_id, trial, reward, info: {task}, traj}].`);
}
