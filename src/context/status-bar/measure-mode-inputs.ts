import type { Message } from "../../types/index.js";
import { visibleText } from "../prefix-guard/request-layers.js";
import type { StatusBarModeInputs } from "./choose-status-bar-mode.js";
import type { StatusBarSettings } from "./status-bar-settings.js";
import { currentRunStart } from "./status-message.js";

/**
 * The cost model's inputs for the run about to start, from the trajectory: S is the status about to
 * be sent; N the expected calls of a run; α from the settings (the CLI takes it from the pricing
 * catalog); R the tokens per update whose cache a replaced status invalidates.
 *
 * The seed takes R as everything appended between updates. In ctxkit's layout the replaced status
 * is the very last thing a request sent, so what a replacement invalidates is only what the cache
 * held *after* it: the model's reply, on engines that cache generated tokens (vLLM, llama.cpp), and
 * nothing on prompt-only caches (hosted APIs) — tool results are new tokens in either mode.
 * Measured on the corpus (`ctxkit bench status-bar --cost`), the seed's R made `auto` pick append in
 * all 99 swe-gemini runs although replace was cheaper in every one. A reply that carries reasoning
 * adds nothing to R either: chat templates (Qwen3, DeepSeek-R1) and most harnesses drop the
 * reasoning of earlier turns, so the next request differs from the cached generation at the
 * reply's first token whatever the status mode.
 *
 * N is the run's expected number of calls: the configured prior until the run has lasted longer,
 * then twice the calls so far (the Copernican estimate: a run seen k calls in is, at the median,
 * halfway through) — so a long run turns `auto` from append to replace once the stored statuses'
 * re-reads outweigh what replacing would re-process. Pure.
 */
// Messages are frozen once created, so a message's count never changes: remember it per counter.
const countsByCounter = new WeakMap<object, WeakMap<Message, number>>();

function tokensOf(message: Message, counter: StatusBarSettings["tokenCounter"]): number {
  let counts = countsByCounter.get(counter);
  if (counts === undefined) countsByCounter.set(counter, (counts = new WeakMap()));
  let count = counts.get(message);
  if (count === undefined) counts.set(message, (count = counter.count(visibleText(message))));
  return count;
}

export function measureModeInputs(messages: readonly Message[], statusText: string, settings: StatusBarSettings): StatusBarModeInputs {
  const counter = settings.tokenCounter;
  const firstReply = messages.findIndex((message) => message.role === "assistant");
  let appendedTokens = 0;
  let calls = 0;
  if (firstReply >= 0) {
    for (const message of messages.slice(firstReply)) {
      if (message.role === "assistant") {
        calls++;
        const keptAsGenerated = !message.content.some((part) => part.type === "thinking");
        if (settings.cacheKeepsReplies && keptAsGenerated) appendedTokens += tokensOf(message, counter);
      }
    }
  }
  let callsThisRun = 0;
  for (const message of messages.slice(currentRunStart(messages) + 1)) if (message.role === "assistant") callsThisRun++;
  return {
    statusTokens: counter.count(statusText),
    appendedTokensPerUpdate: !settings.cacheKeepsReplies ? 0 : calls === 0 ? settings.appendedTokensPerCall : appendedTokens / calls,
    expectedUpdates: Math.max(settings.expectedCallsPerRun, 2 * callsThisRun),
    cachedInputPriceRatio: settings.cachedInputPriceRatio,
  };
}
