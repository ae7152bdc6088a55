import type { Provider } from "../../providers/provider.js";
import { ConfigError } from "../../types/index.js";
import { statusBarArms, type StatusBarArm } from "./status-bar-arms.js";
import type { StatusBarTask } from "./status-bar-task.js";
import { statusBarTasks } from "./status-bar-tasks.js";
import { runStatusBarTask, type TaskRunResult } from "./run-status-bar-task.js";

export interface StatusBarLiveOptions {
  /** A real model; absent = each task's scripted solution (the offline check of judges and plumbing). */
  provider?: Provider;
  tasks?: readonly string[];
  arms?: readonly string[];
  repeats?: number;
  maxIterations?: number;
  /** Told after each run (the CLI shows progress). */
  onResult?: (result: TaskRunResult) => void;
  /** Told after each run: how many of all the runs (arms × tasks × repeats) are done. */
  onProgress?: (done: number, total: number) => void;
}

export interface StatusBarLiveReport {
  model: string;
  repeats: number;
  results: TaskRunResult[];
}

/** Every chosen task under every chosen arm, `repeats` times, one after another (runs share no state). */
export async function runStatusBarLiveBench(options: StatusBarLiveOptions = {}): Promise<StatusBarLiveReport> {
  const tasks = pick<StatusBarTask>(options.tasks, statusBarTasks, (task) => task.name, "task");
  const arms = pick<StatusBarArm>(options.arms, statusBarArms, (arm) => arm, "arm");
  const repeats = options.repeats ?? 1;
  const results: TaskRunResult[] = [];
  for (const arm of arms) {
    for (const task of tasks) {
      for (let repeat = 0; repeat < repeats; repeat++) {
        const result = await runStatusBarTask(task, arm, { ...(options.provider ? { provider: options.provider } : {}), ...(options.maxIterations ? { maxIterations: options.maxIterations } : {}) });
        results.push(result);
        options.onResult?.(result);
        options.onProgress?.(results.length, arms.length * tasks.length * repeats);
      }
    }
  }
  return { model: options.provider?.model ?? "scripted solutions", repeats, results };
}

function pick<T>(names: readonly string[] | undefined, all: readonly T[], nameOf: (item: T) => string, what: string): T[] {
  if (names === undefined) return [...all];
  return names.map((name) => {
    const found = all.find((item) => nameOf(item) === name);
    if (found === undefined) throw new ConfigError("option_invalid", `Unknown ${what} '${name}'. Use one of: ${all.map(nameOf).join(", ")}.`);
    return found;
  });
}
