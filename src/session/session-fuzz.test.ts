import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CtxkitError } from "../types/index.js";
import { useTempSessionStore, samplePrefix, userMessage } from "./test-support/session-test-data.js";

const store = useTempSessionStore();

function createRandom(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % below;
  };
}

// A reduced form of the battery (300 fuzzed session files): lines duplicated, dropped or swapped.
// Every file either loads — with a warning for each oddity and no duplicate in the context — or is
// refused with session_corrupt naming the line; nothing loads silently changed.
describe("loading mutated session files", () => {
  it("warns or refuses, never loads a duplicate silently: 120 mutations", async () => {
    const writer = await store.create({ id: "base", createdAt: "2026-11-30T04:15:02.118Z", prefix: samplePrefix });
    for (let index = 0; index < 4; index += 1) {
      writer.appendMessage(userMessage(`m${index}`, `message ${index}`));
      const request = writer.appendRequest({ messageCount: index + 1, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: "2026-11-30T04:15:03.000Z" });
      writer.appendUsage(request, { inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0 });
    }
    await writer.close();
    const original = (await readFile(store.path("base"), "utf8")).split("\n").slice(0, -1);
    const outcomes = { loadedWithWarning: 0, refused: 0, silent: 0 };
    for (let trial = 0; trial < 120; trial += 1) {
      const random = createRandom(trial + 7);
      const lines = [...original];
      const at = 2 + random(lines.length - 2);
      const mutation = trial % 3;
      if (mutation === 0) lines.splice(at, 0, lines[at]!);
      else if (mutation === 1) lines.splice(at, 1);
      else if (at + 1 < lines.length) [lines[at], lines[at + 1]] = [lines[at + 1]!, lines[at]!];
      const id = `fuzz-${trial}`;
      await writeFile(store.path(id), `${lines.join("\n")}\n`);
      try {
        const loaded = await store.load(id);
        const ids = loaded.messages.map((message) => message.meta.id);
        expect(new Set(ids).size).toBe(ids.length);
        const changed = lines.join("\n") !== original.join("\n");
        if (loaded.warnings.length > 0) outcomes.loadedWithWarning += 1;
        else if (changed && loaded.log.length !== 4) outcomes.silent += 1;
      } catch (error) {
        expect(error).toBeInstanceOf(CtxkitError);
        expect((error as CtxkitError).code).toBe("session_corrupt");
        outcomes.refused += 1;
      }
    }
    expect(outcomes.silent).toBe(0);
    expect(outcomes.loadedWithWarning + outcomes.refused).toBeGreaterThan(60);
  });
});
