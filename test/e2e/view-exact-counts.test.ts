import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The session store's fixture: a ctxkit v2 session with a declared context edit before call 2.
const session = resolve("src/session/fixtures/v2-context-edit.jsonl");

interface Timeline {
  version: number;
  run: { tokenizer: string; notes: string[] };
  calls: Array<{ promptTokens: number }>;
}

describe("ctxkit view with exact counts in a worker thread", () => {
  it("serves estimates first, then the exact Qwen3 counts, and renders prompts token by token", async () => {
    const child = spawn(process.execPath, [resolve("bin/ctxkit.js"), "view", session, "--port", "0", "--no-open"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((resolvePromise, reject) => {
        let text = "";
        child.stdout.on("data", (data: Buffer) => {
          text += data.toString();
          if (text.includes("\n")) resolvePromise(text.slice(0, text.indexOf("\n")));
        });
        child.once("exit", () => reject(new Error(`ctxkit view ended: ${text}`)));
      });
      const token = new URL(url).searchParams.get("token");
      const api = async <T>(path: string) => (await (await fetch(`${url.replace(/\?.*$/, "")}api/${path}?token=${token}`)).json()) as T;
      const first = await api<Timeline>("runs/0/timeline");
      let timeline = first;
      for (let attempt = 0; attempt < 600 && !timeline.run.tokenizer.includes("Qwen3") ; attempt++) {
        await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
        timeline = await api<Timeline>("runs/0/timeline");
      }
      expect(timeline.run.tokenizer).toMatch(/Qwen3/);
      expect(timeline.run.notes.join(" ")).not.toMatch(/being computed in the background/);
      if (first.version !== timeline.version) expect(first.run.notes[0]).toMatch(/being computed in the background/);
      const call = await api<{ prompt: { text: string; tokens: number; ranges: unknown[]; divergentToken?: { index: number } } }>(`runs/0/calls/${timeline.calls.length - 1}`);
      // Token ranges and a token index for the divergent token: the worker's exact rendering, not the estimate's character prefix.
      expect(call.prompt.ranges.length).toBeGreaterThan(0);
      expect(call.prompt.tokens).toBe(timeline.calls.at(-1)!.promptTokens);
      expect(call.prompt.text).toContain("<|im_start|>system");
    } finally {
      child.kill("SIGTERM");
    }
  }, 120_000);
});
