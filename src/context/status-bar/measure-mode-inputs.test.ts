import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message } from "../../types/index.js";
import { measureModeInputs } from "./measure-mode-inputs.js";
import { resolveStatusBarSettings } from "./status-bar-settings.js";

const counter = { name: "words", exact: false, count: (text: string) => text.split(/\s+/).filter(Boolean).length };
const settings = resolveStatusBarSettings({ mode: "auto", cacheKeepsReplies: true, expectedCallsPerRun: 10, tokenCounter: counter });
const person = (id: string): Message => ({ role: "user", content: "do it", meta: { id, origin: "user", createdAt: "" } });
const reply = (id: string, words: number, thinking = false): AssistantMessage => ({
  role: "assistant",
  content: [...(thinking ? [{ type: "thinking" as const, thinking: "hmm" }] : []), { type: "text", text: "w ".repeat(words) }],
  meta: { id, origin: "model", createdAt: "" },
});

describe("measureModeInputs", () => {
  it("takes N as the prior until the run has lasted longer, then twice the calls so far", () => {
    const early = [person("u"), reply("a1", 10), reply("a2", 10)];
    expect(measureModeInputs(early, "status text", settings).expectedUpdates).toBe(10);
    const long = [person("u"), ...Array.from({ length: 7 }, (_, index) => reply(`a${index}`, 10))];
    expect(measureModeInputs(long, "status text", settings).expectedUpdates).toBe(14);
    // A new request from the person starts a new run: only its own calls count.
    expect(measureModeInputs([...long, person("u2"), reply("b1", 10)], "status text", settings).expectedUpdates).toBe(10);
  });

  it("counts in R only replies the cache can reuse: not those whose reasoning the next request drops", () => {
    const plain = measureModeInputs([person("u"), reply("a1", 40), reply("a2", 40)], "s", settings).appendedTokensPerUpdate;
    const oneReasoned = measureModeInputs([person("u"), reply("a1", 40), reply("a2", 40, true)], "s", settings).appendedTokensPerUpdate;
    expect(plain).toBeGreaterThan(40);
    expect(oneReasoned).toBe(plain / 2); // the reasoned reply adds nothing; still two calls
    const promptOnly = measureModeInputs([person("u"), reply("a1", 40)], "s", resolveStatusBarSettings({ tokenCounter: counter }));
    expect(promptOnly.appendedTokensPerUpdate).toBe(0);
  });
});
