import { createStatusBar } from "../../context/status-bar/create-status-bar.js";
import type { StatusBarModeDecision } from "../../context/status-bar/choose-status-bar-mode.js";
import type { StatusBarMode } from "../../context/status-bar/status-bar-settings.js";
import { createStablePrefix } from "../../context/stable-prefix.js";
import type { ImportedTranscript } from "../../inspect/imported-transcript.js";
import type { Message } from "../../types/index.js";
import { visibleText } from "../../context/prefix-guard/request-layers.js";

/** One model call of a recorded run as a harness with the status bar would have sent it. */
export interface SimulatedCall {
  /** The request's messages, the tail (replace mode) included as its last message. */
  request: Message[];
  response?: Message;
}

export interface SimulatedRun {
  calls: SimulatedCall[];
  /** `auto`'s decisions, one per run of the transcript (a run starts at each message the person wrote). */
  decisions: StatusBarModeDecision[];
}

/** Facts a recorded run does not carry; fixed so the status has a realistic, reproducible size. */
const environment = { workingDirectory: "/testbed", os: "linux 6.8.0 (x86_64)", shell: "/bin/bash", runtime: "python 3.11.9" };

/**
 * Replays a recorded run through the real status-bar policy and tail, as the agent loop drives them:
 * before each recorded call the messages that arrived since the previous call are appended, then
 * `prepareContext` (which stores a status in append mode) and `tail` (replace mode). Pure given the
 * transcript; the clock advances one minute per call.
 */
export async function simulateStatusBarModes(
  transcript: ImportedTranscript,
  mode: StatusBarMode,
  cachedInputPriceRatio: number,
  cacheKeepsReplies = false,
): Promise<SimulatedRun> {
  const decisions: StatusBarModeDecision[] = [];
  // A cache that keeps generated replies only helps when the next request sends the reply back as
  // generated; this recording's agent may not (mini-swe-agent drops Gemini's reasoning), and a
  // harness knows that of itself — ctxkit from its provider profile's reasoning round-trip.
  const keepsReplies = cacheKeepsReplies && repliesSentBackAsGenerated(transcript);
  const statusBar = createStatusBar({ mode, environment, cachedInputPriceRatio, cacheKeepsReplies: keepsReplies, onDecision: (decision) => decisions.push(decision) });
  const prefix = createStablePrefix(transcript.calls[0]?.request.system ?? "", transcript.calls[0]?.request.tools ?? []);
  const signal = new AbortController().signal;
  const trajectory: Message[] = [];
  let recorded: readonly Message[] = [];
  const calls: SimulatedCall[] = [];
  for (const [index, call] of transcript.calls.entries()) {
    const now = new Date(Date.UTC(2025, 8, 14, 9, 0) + index * 60_000);
    const next = call.request.messages;
    if (extends_(recorded, next)) trajectory.push(...next.slice(recorded.length));
    else trajectory.splice(0, trajectory.length, ...next); // the recording itself rewrote history
    recorded = next;
    const edits = (await statusBar.prepareContext?.({ messages: trajectory, prefix, iteration: index, now, overflow: false, signal })) ?? [];
    for (const edit of edits) if (edit.type === "append") trajectory.push(...edit.messages);
    const tail = statusBar.tail?.({ trajectory, iteration: index, now });
    const tailMessage: Message | undefined = tail === undefined ? undefined : { role: "user", content: tail, meta: { id: `tail_${index}`, origin: "harness", createdAt: now.toISOString() } };
    calls.push({ request: tailMessage ? [...trajectory, tailMessage] : [...trajectory], ...(call.response ? { response: call.response } : {}) });
  }
  return { calls, decisions };
}

/** Whether each recorded reply comes back in the next request exactly as it was generated. */
export function repliesSentBackAsGenerated(transcript: ImportedTranscript): boolean {
  return transcript.calls.every((call, index) => {
    const next = transcript.calls[index + 1];
    if (call.response === undefined || next === undefined) return true;
    const history = next.request.messages[call.request.messages.length];
    return history !== undefined && visibleText(history) === visibleText(call.response);
  });
}

function extends_(previous: readonly Message[], next: readonly Message[]): boolean {
  return previous.length <= next.length && previous.every((message, index) => message === next[index] || message.meta.id === next[index]!.meta.id);
}
