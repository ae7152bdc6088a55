import { describe, expect, it } from "vitest";
import type { ToolCallPart } from "../../types/index.js";
import type { OpenAIToolCallFragment } from "./normalize-openai-chunk.js";
import { OpenAIResponseAccumulator } from "./openai-response-accumulator.js";

/** A small deterministic generator (mulberry32): the same cases on every run. */
function seeded(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * below);
  };
}

/** Arguments that often look like a whole object part-way (nested objects, braces inside strings). */
function randomArguments(random: (below: number) => number): string {
  const values = ['{"a":{"b":1}}', '"}{"', '{"x":"{}"}', "[{}]", "1", '" { } "', "{}"];
  const entries = Array.from({ length: 1 + random(3) }, (_, key) => `"k${key}":${values[random(values.length)]}`);
  return `{${entries.join(",")}}`;
}

/** Cuts text at random places into non-empty pieces. */
function pieces(text: string, random: (below: number) => number): string[] {
  const cut: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = 1 + random(Math.min(6, text.length - at));
    cut.push(text.slice(at, at + size));
    at += size;
  }
  return cut;
}

function accumulate(fragments: OpenAIToolCallFragment[]): ToolCallPart[] {
  const accumulator = new OpenAIResponseAccumulator();
  for (const fragment of fragments) accumulator.apply({ toolCalls: [fragment] });
  return accumulator.response().content.filter((part): part is ToolCallPart => part.type === "tool_call");
}

// Calls sent with no id at index 0 (Ollama's legacy path numbers every call 0; some builds send no
// id) are told apart by their names and whole arguments. This checks over many streams that no
// call is ever cut in two, however its arguments are split, and that calls sent whole, the same
// tool twice included, are never merged.
describe("id-less tool calls at one index", () => {
  const random = seeded(20_261_203);
  const cases = Array.from({ length: 300 }, () => Array.from({ length: 1 + random(3) }, () => ({ name: ["f", "g"][random(2)]!, argumentsText: randomArguments(random) })));

  it("keeps each call whole when the name comes on every fragment and the arguments in pieces", () => {
    for (const calls of cases) {
      const fragments = calls.flatMap((call) => pieces(call.argumentsText, random).map((piece) => ({ index: 0, name: call.name, argumentsText: piece })));
      expect(accumulate(fragments).map(({ name, argumentsText }) => ({ name, argumentsText }))).toEqual(calls);
    }
  });

  it("keeps each call whole when the name comes only with its first piece", () => {
    for (const calls of cases) {
      const fragments = calls.flatMap((call) => pieces(call.argumentsText, random).map((piece, part) => (part === 0 ? { index: 0, name: call.name, argumentsText: piece } : { index: 0, argumentsText: piece })));
      expect(accumulate(fragments).map(({ name, argumentsText }) => ({ name, argumentsText }))).toEqual(calls);
    }
  });

  it("splits calls sent whole, each in one fragment, the same tool with the same arguments included", () => {
    for (const calls of [...cases, [{ name: "f", argumentsText: "{}" }, { name: "f", argumentsText: "{}" }]]) {
      expect(accumulate(calls.map((call) => ({ index: 0, ...call }))).map(({ name, argumentsText }) => ({ name, argumentsText }))).toEqual(calls);
    }
  });
});
