import { describe, expect, it } from "vitest";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";

describe("mapAnthropicStopReason", () => {
  it.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["pause_turn", "paused"],
    ["tool_use", "tool_calls"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["refusal", "content_filter"],
  ] as const)("maps %s to %s", (raw, unified) => {
    expect(mapAnthropicStopReason(raw, false)).toBe(unified);
  });
  it("falls back on the content when the reason is missing or unknown", () => {
    expect(mapAnthropicStopReason(undefined, true)).toBe("tool_calls");
    expect(mapAnthropicStopReason("something_new", false)).toBe("stop");
  });
});
