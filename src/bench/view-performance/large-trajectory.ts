import type { ImportedTranscript } from "../../inspect/index.js";
import type { TokenCounter } from "../../tokens/index.js";
import { textOf, type Message } from "../../types/index.js";
import { buildSyntheticTranscript } from "../inspect-performance/synthetic-transcript.js";

export interface LargeTrajectoryOptions {
  /** Model calls (default 500). */
  calls?: number;
  /** Tokens every call's prompt has at least (default 100,000): real observations pasted into the task as context. */
  contextTokens?: number;
  counter: TokenCounter;
}

/**
 * A mini-swe-agent trajectory file (`.traj.json`) of `calls` calls, each prompt at least
 * `contextTokens` long: the synthetic inspect-performance run (real turns of the corpus replayed
 * one after another), with real observations of the same runs appended to the task message until
 * the first prompt reaches `contextTokens`. Written as a file, so the benchmark times the viewer
 * as a user runs it: read, import, analyse, serve, draw.
 */
export function buildLargeTrajectory(sources: readonly ImportedTranscript[], options: LargeTrajectoryOptions): { json: string; calls: number; contextTokens: number } {
  const synthetic = buildSyntheticTranscript(sources, { calls: options.calls ?? 500 });
  const last = synthetic.calls.at(-1)!;
  const target = options.contextTokens ?? 100_000;
  const observations = sources.flatMap((source) => (source.calls.at(-1)?.request.messages ?? []).filter((message) => message.meta.origin === "tool").map(contentOf));
  const pieces: string[] = [];
  let tokens = 0;
  for (let index = 0; tokens < target && observations.length > 0; index++) {
    const piece = `\n<context_file index="${index}">\n${observations[index % observations.length]!.slice(0, 20_000)}\n</context_file>`;
    pieces.push(piece);
    tokens += options.counter.count(piece);
  }
  const [task, ...rest] = last.request.messages;
  const messages = [
    { role: "system", content: last.request.system.staticText },
    { role: "user", content: `${task === undefined ? "" : contentOf(task)}\n\nRepository context:${pieces.join("")}` },
    ...rest.map((message) => ({ role: message.role === "assistant" ? "assistant" : "user", content: contentOf(message) })),
    { role: "assistant", content: last.response === undefined ? "THOUGHT: done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```" : textOf(last.response) },
  ];
  const json = JSON.stringify({ trajectory_format: "mini-swe-agent-1", instance_id: `view-bench-${synthetic.calls.length}`, info: { exit_status: "Submitted", config: { model: { model_name: "qwen/qwen3-8b" } } }, messages });
  return { json, calls: synthetic.calls.length, contextTokens: tokens };
}

function contentOf(message: Message): string {
  return message.role === "assistant" ? textOf(message) : message.content;
}
