import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTextCategories, sampleEvenly } from "./load-text-categories.js";

describe("sampleEvenly", () => {
  it("spreads the sample over the whole list, deterministically", () => {
    const items = Array.from({ length: 10 }, (_, index) => index);
    expect(sampleEvenly(items, 3)).toEqual([0, 3, 6]);
    expect(sampleEvenly(items, 10)).toEqual(items);
    expect(sampleEvenly(items, undefined)).toEqual(items);
  });
});

describe("loadTextCategories", () => {
  it("reads dialogue contents and tool-call arguments but not the system prompt, and names what is missing", async () => {
    const root = await mkdtemp(join(tmpdir(), "ctxkit-token-corpus-"));
    const tau = join(root, "corpus", "tau-bench");
    await mkdir(join(tau, "trajectories"), { recursive: true });
    await writeFile(
      join(tau, "trajectories", "gpt-4o-airline.json"),
      JSON.stringify([
        {
          task_id: 0,
          traj: [
            { role: "system", content: "# Airline Agent Policy" },
            { role: "user", content: "Cancel ABC123." },
            { role: "assistant", content: null, tool_calls: [{ function: { name: "cancel", arguments: '{"id":"ABC123"}' } }] },
            { role: "tool", content: '{"status":"cancelled"}' },
          ],
        },
      ]),
    );
    const loaded = await loadTextCategories({ corpus: join(root, "corpus"), seeds: join(root, "seeds") });
    if (!loaded.found) throw new Error("expected the dialogues to be found");
    expect(loaded.categories.map((category) => [category.id, category.texts])).toEqual([
      ["tau-dialogues", ["Cancel ABC123.", '{"id":"ABC123"}', '{"status":"cancelled"}']],
    ]);
    expect(loaded.skipped.map((category) => category.id)).toEqual(["tau-policies", "tool-schemas", "swe-gemini", "chinese"]);
    expect(loaded.skipped.at(-1)!.missing).toEqual([join(root, "seeds", "000_*.txt")]);
  });

  it("finds nothing when neither tau-bench/ nor swe-gemini/ is there, even with the Chinese seeds", async () => {
    const root = await mkdtemp(join(tmpdir(), "ctxkit-token-corpus-"));
    await mkdir(join(root, "seeds"));
    await writeFile(join(root, "seeds", "000_chapter.txt"), "上下文工程");
    expect(await loadTextCategories({ corpus: join(root, "corpus"), seeds: join(root, "seeds") })).toEqual({ found: false, corpus: join(root, "corpus") });
  });
});
