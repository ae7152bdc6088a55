import { describe, expect, it } from "vitest";
import { getTokenCounter } from "../../tokens/index.js";
import { assistant, request, user } from "../test-support/transcript-builder.js";
import { createQwen3PromptRenderer } from "./qwen3-prompt-renderer.js";
import { toRenderedCallText } from "./rendered-call-text.js";

describe("toRenderedCallText", () => {
  const counter = getTokenCounter("qwen3");
  const decode = (tokens: readonly number[]) => counter.decode!(tokens);

  it("places the reusable prefix and the first divergent token in the rendered text, at a token boundary", () => {
    const renderer = createQwen3PromptRenderer(counter);
    const task = user("Summarise the log for the café, line by line.");
    const rendered = renderer.render(request("You are a careful agent.", [task, assistant("Sure."), user("Now the errors only.")]));
    const reusable = rendered.segments[0]!.tokens.length + 5;
    const text = toRenderedCallText(rendered, reusable, decode);
    expect(text.text).toBe(rendered.segments.map((segment) => segment.text).join(""));
    expect(text.tokens).toBe(rendered.total);
    // The shaded text re-encodes to exactly the reusable tokens.
    expect(counter.encode!(text.text.slice(0, text.reusableChars))).toEqual(rendered.segments.flatMap((segment) => segment.tokens).slice(0, reusable));
    expect(text.divergentToken).toMatchObject({ start: text.reusableChars, index: reusable });
    expect(text.divergentToken!.end).toBeGreaterThan(text.reusableChars);
    expect(text.ranges.map((range) => range.part)).toEqual(["header", "user", "assistant", "user", "generation_prompt"]);
    expect(text.ranges.at(-1)!.end).toBe(text.text.length);
  });

  it("shades everything and marks nothing when the whole prompt is reusable", () => {
    const rendered = createQwen3PromptRenderer(counter).render(request("s", [user("hi")]));
    const text = toRenderedCallText(rendered, rendered.total, decode);
    expect(text.reusableChars).toBe(text.text.length);
    expect(text.divergentToken).toBeUndefined();
  });
});
