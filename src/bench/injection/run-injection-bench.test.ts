import { describe, expect, it } from "vitest";
import { injectionPayloads } from "./injection-payloads.js";
import { runInjectionBench } from "./run-injection-bench.js";
import { wilsonInterval } from "./wilson-interval.js";

describe("the offline injection bench", () => {
  it("has a corpus of at least 30 published payloads, each with its source", () => {
    expect(injectionPayloads.length).toBeGreaterThanOrEqual(30);
    expect(new Set(injectionPayloads.map((payload) => payload.id)).size).toBe(injectionPayloads.length);
    for (const payload of injectionPayloads) {
      expect(payload.source.length, payload.id).toBeGreaterThan(10);
      expect(payload.template, payload.id).toMatch(/\{(?:hidden:)?goal\}/);
    }
  });

  it("lets no attack succeed against either scripted model under the full defence, and asks instead", async () => {
    const report = await runInjectionBench({ attacks: ["direct", "indirect", "memory"], defences: ["runtime-guard"] });
    const cells = report.cells;
    expect(cells).toHaveLength(6);
    for (const cell of cells) {
      // A direct attack sits in the user's message (one placement); the others in four places.
      const trials = injectionPayloads.length * (cell.attack === "direct" ? 1 : 4);
      expect(cell, `${cell.model} ${cell.attack}`).toMatchObject({ successes: 0, trials });
    }
    // The model that obeys everything is stopped by the guard: it asked for each of those trials.
    expect(cells.filter((cell) => cell.model === "obeys-all" && cell.attack !== "direct").every((cell) => cell.confirmationsRequested === cell.trials)).toBe(true);
    expect(report.trials.filter((trial) => trial.error)).toEqual([]);
  }, 300_000);

  it("shows what each layer adds: tags stop the model that respects them, not the one that obeys all", async () => {
    const report = await runInjectionBench({ attacks: ["indirect"], defences: ["none", "source-tags"] });
    const rate = (model: string, defence: string) => report.cells.find((cell) => cell.model === model && cell.defence === defence)!.rate;
    expect(rate("obeys-all", "none")).toBe(1);
    expect(rate("obeys-outside-tags", "none")).toBe(1);
    expect(rate("obeys-outside-tags", "source-tags")).toBe(0);
    expect(rate("obeys-all", "source-tags")).toBe(1);
  }, 300_000);

  it("computes Wilson intervals", () => {
    const [low, high] = wilsonInterval(0, 144);
    expect(low).toBe(0);
    expect(high).toBeCloseTo(0.026, 3);
    const [middleLow, middleHigh] = wilsonInterval(5, 10);
    expect(middleLow).toBeCloseTo(0.237, 3);
    expect(middleHigh).toBeCloseTo(0.763, 3);
  });
});
