import { describe, expect, it } from "vitest";
import { sampleDialogue } from "../kv-cache/test-support/sample-dialogue.js";
import { scoreScenario } from "./measure-guard.js";

const dialogues = [sampleDialogue(5, "d1"), sampleDialogue(4, "d2")];

describe("the prefix guard scored against what is really sent", () => {
  it("the old layer-hash guard raises false alarms for fields no wire format sends; the wire guard raises none", () => {
    const score = scoreScenario(dialogues, "internal_fields");
    expect(score.realBreaks).toBe(0);
    expect(score.falseAlarms["legacy layer hashes"]).toBeGreaterThan(0);
    expect(score.falseAlarms["wire body"]).toBe(0);
    expect(score.falseAlarms["wire body + Qwen3 tokens"]).toBe(0);
  });

  it("only the guard on prompt tokens sees Qwen3's template dropping reasoning at a new user query", () => {
    const score = scoreScenario(dialogues, "qwen3_reasoning");
    expect(score.realBreaks).toBeGreaterThan(0);
    expect(score.misses["legacy layer hashes"]).toBe(score.realBreaks);
    expect(score.misses["wire body"]).toBe(score.realBreaks);
    expect(score.misses["wire body + Qwen3 tokens"]).toBe(0);
    expect(score.falseAlarms["wire body + Qwen3 tokens"]).toBe(0);
  });

  it("only the wire guards see a provider update that rewrites old messages' bytes", () => {
    const score = scoreScenario(dialogues, "serializer_change");
    expect(score.realBreaks).toBe(dialogues.length);
    expect(score.misses["legacy layer hashes"]).toBe(dialogues.length);
    expect(score.misses["wire body"]).toBe(0);
  });

  it("every guard finds the breaks of the experiment 2-3 modes and none in the correct layout", () => {
    expect(scoreScenario(dialogues, "correct").reported["wire body + Qwen3 tokens"]).toBe(0);
    const shuffled = scoreScenario(dialogues, "shuffled_tools");
    expect(shuffled.realBreaks).toBeGreaterThan(0);
    expect(shuffled.misses["wire body + Qwen3 tokens"]).toBe(0);
    expect(shuffled.falseAlarms["wire body + Qwen3 tokens"]).toBe(0);
  });
});
