import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const claudeCodeExpiry = fileURLToPath(new URL("../src/inspect/importers/fixtures/claude-code-opus-4-6-cache-expiry.jsonl", import.meta.url));
const codexRollout = new URL("../src/inspect/importers/fixtures/codex-rollout.jsonl", import.meta.url);

describe("ctxkit inspect names why a call missed the cache", () => {
  it("says in --help what the cache-miss column holds", async () => {
    const run = await runCli(["inspect", "--help"], { cwd: tmpdir() });
    expect(run.code).toBe(0);
    const help = run.stdout.replace(/\s+/g, " ");
    expect(help).toContain('the "cache miss" column why a call got fewer cached tokens than the previous prompt left reusable');
    for (const cause of ["the prefix or tool set changed", "a server-side edit", "the model or effort changed", "the cache expired", "the provider missed it for no visible reason", "the dollars re-billed"]) {
      expect(help).toContain(cause);
    }
  });

  it("names the expiry in a real Claude Code session where a permission prompt waited 19 minutes, with its dollars", async () => {
    // A recorded claude-opus-4-6 session (see fixtures/README.md): the call at 20:39:57 read 79,483
    // tokens from the 5-minute cache; the tool result came back at 20:58:52, and the next call read
    // nothing and wrote 83,565 tokens again.
    const run = await runCli(["inspect", "--tokenizer", "estimate", claudeCodeExpiry], { cwd: tmpdir() });
    expect(run.code).toBe(0);
    // The call wrote them to the cache again: (6.25 − 0.50) $/M (claude-opus-4-6's 5-minute write
    // price less its read price) × the 82,861 tokens the previous prompt left reusable.
    expect(run.stdout).toContain("cache expired: 19m 10s since the previous call, past the 5m lifetime: 82,861 tokens re-billed ($0.4765)");
    expect(run.stdout).toMatch(/cache_misses: 1 call got fewer cached tokens .*cache expired ×1/);
  });


  it("names a reasoning-effort change recorded in a Codex rollout's turn_context, with the dollars re-billed", async () => {
    const lines = (await readFile(codexRollout, "utf8")).split("\n").filter((line) => line.trim() !== "");
    // The person turns the effort up before "Fix it." (Codex writes a new turn_context), and that
    // turn's first call reads nothing from the cache: OpenAI caches per reasoning effort.
    const fixIt = lines.findIndex((line) => line.includes('"text":"Fix it."'));
    const context = JSON.parse(lines.find((line) => line.includes('"type":"turn_context"'))!) as { timestamp: string; payload: Record<string, unknown> };
    const raised = JSON.stringify({ ...context, timestamp: "2025-11-30T04:15:59.000Z", payload: { ...context.payload, effort: "high" } });
    const edited = [...lines.slice(0, fixIt), raised, ...lines.slice(fixIt)].map((line) =>
      line.includes('"input_tokens":5520') ? line.replace(/"last_token_usage":\{"input_tokens":5520,"cached_input_tokens":\d+/, '"last_token_usage":{"input_tokens":5520,"cached_input_tokens":0') : line,
    );
    const file = join(await mkdtemp(join(tmpdir(), "ctxkit-effort-")), "rollout-2025-11-30T04-15-02-0199a213.jsonl");
    await writeFile(file, `${edited.join("\n")}\n`);
    // Counted without Qwen3's template: it drops earlier turns' reasoning once a new person turn
    // arrives, which reads as a prefix change of the counted prompt (not of the wire) on that call.
    const run = await runCli(["inspect", "--tokenizer", "estimate", file], { cwd: tmpdir() });
    // The fixture keeps one malformed function_call on purpose; inspect reports it and goes on.
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/reasoning effort changed \(medium → high\): [\d,]+ tokens re-billed \(\$0\.\d{4}\)/);
  });
});
