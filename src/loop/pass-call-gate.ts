import type { PolicyStop } from "../context/policy-gates.js";
import type { AgentEvent, ModelRequest } from "../types/index.js";
import type { LoopState } from "./loop-state.js";
import { abortableSleep } from "./abortable-sleep.js";

/**
 * Asks the policies' call gate about a request before it is sent: its warnings become events, a
 * wait becomes a `backpressure` event and a pause, a refusal ends the run (returned). A throwing
 * gate refuses too, with its error: a gate that cannot decide must not let the call through.
 */
export async function* passCallGate(state: LoopState, request: ModelRequest, turn: number, signal: AbortSignal): AsyncGenerator<AgentEvent, PolicyStop | undefined> {
  const gate = state.policy.beforeCall;
  if (!gate) return undefined;
  const { provider } = state.options;
  let body: string | undefined;
  let verdict;
  try {
    verdict = await gate({ request, body: () => (body ??= provider.serialize(request).body), model: provider.model, turn, signal });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const message = `A policy's check before the call failed${typeof code === "string" ? ` (${code})` : ""}: ${error instanceof Error ? error.message : String(error)}`;
    return { stopReason: "error", error: { code: "context_preparation_failed", message } };
  }
  for (const warning of verdict.warnings ?? []) yield { type: "warning", ...warning };
  if (verdict.action === "refuse") return verdict.stop;
  if (verdict.action === "wait" && verdict.delayMs > 0 && !signal.aborted) {
    yield { type: "backpressure", turn, delayMs: verdict.delayMs, share: verdict.share };
    await (verdict.sleep ?? abortableSleep)(verdict.delayMs, signal);
  }
  return undefined;
}
