import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// `ctxkit run --temperature hot` exits 2; the reading commands answered the same mistake with 1, as if the file were at fault.
describe("a flag given a value it does not take", () => {
  it("is a usage error (exit 2, the reason, then the command's help) in inspect, view and replay", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-flag-values-"));
    await writeFile(join(cwd, "run.jsonl"), "{}\n");
    const cases: Array<[string[], string]> = [
      [["inspect", "run.jsonl", "--format", "openai-logg"], "--format must be one of"],
      // Was exit 1, as if the transcript were at fault.
      [["inspect", "run.jsonl", "--pricing", "gpt-9"], "--pricing: No prices for 'gpt-9' in the catalog. Use one of: gpt-4o"],
      [["view", "run.jsonl", "--no-open", "--tokenizer", "qwen4"], "--tokenizer must be one of qwen3, o200k, estimate; got 'qwen4'"],
      [["replay", "run.jsonl", "--split", "half"], "--split must be tune, measure or both"],
      [["replay", "run.jsonl", "--tokenizer", "bpe"], "--tokenizer must be one of estimate, qwen3"],
    ];
    for (const [args, reason] of cases) {
      const run = await runCli(args, { cwd });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toContain(reason);
      expect(run.stderr, args.join(" ")).toContain(`Usage: ctxkit ${args[0]}`);
    }
  });

  it("is a usage error in submit and bench too, before a database or a corpus is looked for", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-flag-values-"));
    const cases: Array<[string[], string]> = [
      [["submit", "--timeout", "0", "task"], "--timeout must be a number above 0, got '0'"],
      [["bench", "serving", "--sizes", "1,x"], "--sizes must be a positive whole number, or several separated by commas, got '1,x'"],
    ];
    for (const [args, reason] of cases) {
      const run = await runCli(args, { cwd });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toContain(reason);
    }
  });
});
