import { describe, expect, it } from "vitest";
import { OpenAIResponseAccumulator } from "./openai-response-accumulator.js";
import type { OpenAIToolCallFragment } from "./normalize-openai-chunk.js";

/** A small seeded generator, so every run tries the same streams. */
function createRandom(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % below;
  };
}

// A reduced form of the battery that found the merge (348 fuzzed streams): calls get wire indexes
// that servers reuse (all 0, or a random earlier one), arguments split at random points.
describe("OpenAI tool call assembly under fuzzed streams", () => {
  it("never merges two calls: 300 streams, every call comes out once with its own arguments", () => {
    let merges = 0;
    for (let trial = 0; trial < 300; trial += 1) {
      const random = createRandom(trial + 1);
      const callCount = 1 + random(5);
      const accumulator = new OpenAIResponseAccumulator();
      const expected: Array<{ id: string; argumentsText: string }> = [];
      for (let call = 0; call < callCount; call += 1) {
        const argumentsText = JSON.stringify({ call, value: "v".repeat(random(30)) });
        const id = `call_${trial}_${call}`;
        expected.push({ id, argumentsText });
        const index = trial % 3 === 0 ? 0 : random(call + 1);
        const cuts = [0, ...Array.from({ length: random(4) }, () => random(argumentsText.length)).sort((left, right) => left - right), argumentsText.length];
        for (let piece = 0; piece + 1 < cuts.length; piece += 1) {
          const fragment: OpenAIToolCallFragment = { index, argumentsText: argumentsText.slice(cuts[piece], cuts[piece + 1]) };
          if (piece === 0) Object.assign(fragment, { id, name: "f" });
          accumulator.apply({ toolCalls: [fragment] });
        }
      }
      const calls = accumulator.response().content.flatMap((part) => (part.type === "tool_call" ? [{ id: part.id, argumentsText: part.argumentsText }] : []));
      if (JSON.stringify(calls) !== JSON.stringify(expected)) merges += 1;
    }
    expect(merges).toBe(0);
  });
});
