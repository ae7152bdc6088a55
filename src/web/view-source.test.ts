import { appendFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createCallDetailBuilder } from "./call-detail.js";
import { createViewSource, type ViewSource } from "./view-source.js";

// The session store's fixture: a ctxkit v2 session with a declared context edit before call 2.
const sessionWithEdit = fileURLToPath(new URL("../session/fixtures/v2-context-edit.jsonl", import.meta.url));

async function until(source: ViewSource, condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 600 && !condition(); attempt++) {
    await source.refresh();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(condition()).toBe(true);
}

describe("background exact counts", () => {
  it("serves estimates at once, then the exact counts and prompts an immediate source would give", async () => {
    const immediate = await createViewSource([sessionWithEdit]);
    const background = await createViewSource([sessionWithEdit], { exactCounts: "background" });
    try {
      const first = background.runs()[0]!.analyzed;
      expect(first.tokenizer.exact).toBe(false);
      expect(first.notes[0]).toMatch(/exact Qwen3 counts are being computed/);
      const estimatedVersion = background.version();

      await until(background, () => background.runs()[0]!.analyzed.tokenizer.exact);
      expect(background.version()).toBeGreaterThan(estimatedVersion);
      const exact = background.runs()[0]!.analyzed;
      const expected = immediate.runs()[0]!.analyzed;
      expect(exact.calls.map((call) => [call.promptTokens, call.reusablePrefixTokens])).toEqual(expected.calls.map((call) => [call.promptTokens, call.reusablePrefixTokens]));
      expect(exact.notes).toEqual(expected.notes);

      const last = exact.calls.length - 1;
      const fromWorker = await createCallDetailBuilder(background).build(background.runs()[0]!, 0, last, "template");
      const fromMeter = await createCallDetailBuilder(immediate).build(immediate.runs()[0]!, 0, last, "template");
      expect(fromWorker!.prompt).toEqual(fromMeter!.prompt);
      expect(fromWorker!.prompt.divergentToken).toBeDefined();
    } finally {
      await background.close();
    }
  }, 120_000);

  it("keeps showing exact counts while a grown file is counted, then shows its new calls exactly", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "ctxkit-view-source-")), "session.jsonl");
    const lines = (await readFile(sessionWithEdit, "utf8")).trimEnd().split("\n");
    const requests = lines.flatMap((line, index) => (line.includes('"type":"request"') ? [index] : []));
    // The session up to its second request: one call; the rest is appended once the exact counts are in.
    await writeFile(file, `${lines.slice(0, requests[1]).join("\n")}\n`);
    const source = await createViewSource([file], { exactCounts: "background", tokenizer: "qwen3" });
    try {
      await until(source, () => source.runs()[0]?.analyzed.tokenizer.exact === true);
      const callsBefore = source.runs()[0]!.analyzed.calls.length;
      await appendFile(file, `${lines.slice(requests[1]).join("\n")}\n`);
      const seenExact: boolean[] = [];
      await until(source, () => {
        seenExact.push(source.runs()[0]!.analyzed.tokenizer.exact);
        return source.runs()[0]!.analyzed.calls.length > callsBefore;
      });
      expect(seenExact.every(Boolean)).toBe(true);
    } finally {
      await source.close();
    }
  }, 120_000);

  it("started when asked: estimates until startExactCounts(), then the exact counts", async () => {
    const source = await createViewSource([sessionWithEdit], { exactCounts: "background", exactCountsStart: "when-asked" });
    try {
      // Long enough for a started worker to finish this small session; a deferred one has not begun.
      for (let attempt = 0; attempt < 20; attempt++) {
        await source.refresh();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(source.runs()[0]!.analyzed.tokenizer.exact).toBe(false);
      source.startExactCounts!();
      await until(source, () => source.runs()[0]!.analyzed.tokenizer.exact);
    } finally {
      await source.close();
    }
  }, 120_000);
});

describe("a call's prompt while a grown file is counted", () => {
  it("is rendered with the estimate at once, not queued behind the worker's count", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "ctxkit-view-source-")), "session.jsonl");
    const lines = (await readFile(sessionWithEdit, "utf8")).trimEnd().split("\n");
    const requests = lines.flatMap((line, index) => (line.includes('"type":"request"') ? [index] : []));
    await writeFile(file, `${lines.slice(0, requests[2]).join("\n")}\n`);
    const source = await createViewSource([file], { exactCounts: "background", tokenizer: "qwen3" });
    try {
      await until(source, () => source.runs()[0]?.analyzed.tokenizer.exact === true);
      expect(await source.exactPrompt!(0, 1, 0)).toBeDefined();
      const version = source.version();
      await appendFile(file, `${lines.slice(requests[2]).join("\n")}\n`);
      // The grown file goes to the worker; the exact counts shown stay until its answer.
      await source.refresh();
      expect(await source.exactPrompt!(0, 1, 0)).toBeUndefined();
      expect(source.version()).toBe(version);
      const detail = await createCallDetailBuilder(source).build(source.runs()[0]!, 0, 1, "template");
      expect(detail!.prompt.text).toContain("<|im_start|>");
      await until(source, () => source.version() > version);
      expect(await source.exactPrompt!(0, 1, 0)).toBeDefined();
    } finally {
      await source.close();
    }
  }, 120_000);
});
