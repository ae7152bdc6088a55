import { describe, expect, it } from "vitest";
import { createCompressionPolicy } from "../create-compression-policy.js";
import { contextState, readingSession, usageOf } from "../test-support/trajectory-builder.js";

const WINDOW = 20_000;

describe("the windowed policy's trigger", () => {
  it("compresses at 80% of the window, or sooner to leave the answer its room", async () => {
    const at = async (inputTokens: number, reservedOutputTokens?: number) => {
      const policy = createCompressionPolicy("windowed", { contextWindow: WINDOW, ...(reservedOutputTokens === undefined ? {} : { reservedOutputTokens }) });
      const messages = readingSession(6, 40);
      await policy.prepareContext!(contextState(messages));
      return (await policy.prepareContext!(contextState(messages, { lastUsage: usageOf(inputTokens) }))) ?? [];
    };
    expect(await at(0.78 * WINDOW)).toEqual([]);
    expect(await at(0.82 * WINDOW)).toHaveLength(1);
    // 6,000 output tokens on a 20k window: the context must stay under 14,000, not 16,000.
    expect(await at(0.72 * WINDOW, 6_000)).toHaveLength(1);
    expect(await at(0.68 * WINDOW, 6_000)).toEqual([]);
  });
});
