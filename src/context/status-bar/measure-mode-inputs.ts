import type { Message } from "../../types/index.js";
import { visibleText } from "../prefix-guard/request-layers.js";
import type { StatusBarModeInputs } from "./choose-status-bar-mode.js";
import type { StatusBarSettings } from "./status-bar-settings.js";
import { isStatusMessage } from "./status-message.js";

/**
 * The cost model's inputs for the run about to start, from the trajectory: S is the status about to
 * be sent; R the tokens an average model call has appended so far in this session (reply, tool results,
 * later requests; stored statuses excluded), or the configured prior before the first call; N the
 * expected calls of a run; α from the settings (the CLI takes it from the pricing catalog). Pure.
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
      if (message.role === "assistant") calls++;
      if (!isStatusMessage(message)) appendedTokens += tokensOf(message, counter);
    }
  }
  return {
    statusTokens: counter.count(statusText),
    appendedTokensPerUpdate: calls === 0 ? settings.appendedTokensPerCall : appendedTokens / calls,
    expectedUpdates: settings.expectedCallsPerRun,
    cachedInputPriceRatio: settings.cachedInputPriceRatio,
  };
}
