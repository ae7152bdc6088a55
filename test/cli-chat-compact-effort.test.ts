import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answerOnly, compactionBlock, recordedCompaction } from "../src/providers/anthropic/test-support/compaction-streams.js";
import { startLoopbackServer, type LoopbackServer } from "../src/testing/loopback-server.js";
import { recordedResponsesAnswer } from "../src/providers/openai-responses/test-support/recorded-answer.js";
import { documentedCompaction } from "../src/providers/openai-responses/test-support/documented-compaction.js";
import { runCli } from "./run-cli.js";
import { sessionFile, sessionRecords } from "./session-records.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("chat's /compact and /effort", () => {
  it("/compact with --provider anthropic: the next message asks the server to compact, and the one after starts at the compaction block", async () => {
    server = await startLoopbackServer([answerOnly, recordedCompaction, answerOnly]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-compact-"));
    const run = await runCli(["chat", "--provider", "anthropic", "--api-key", "k", "--base-url", server.url, "--model", "claude-opus-4-6", "--status-bar", "off"], {
      cwd,
      input: [
        "Summarise the testing section.",
        { line: "/compact Keep file paths verbatim.", waitFor: "> " },
        { line: "Now the E2E part.", waitFor: "compact the conversation first" },
        { line: "And the unit tests?", waitFor: "Session" },
        "/exit",
      ],
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(JSON.parse(server.requests[0]!.body)).not.toHaveProperty("context_management");
    expect(server.requests[1]!.headers["anthropic-beta"]).toBe("compact-2026-01-12");
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({
      context_management: { edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 50_000 }, instructions: "Keep file paths verbatim." }] },
    });
    expect(server.requests[2]!.body).toContain(`"messages":[{"role":"assistant","content":[${compactionBlock}`);
    expect(JSON.parse(server.requests[2]!.body)).not.toHaveProperty("context_management");
    const edits = (await sessionRecords(cwd)).filter((record) => record.type === "context_edit");
    expect(edits).toEqual([expect.objectContaining({ start: 0, end: 3, reason: expect.stringContaining("server-side compaction") })]);
  });

  it("--compact-threshold with --provider anthropic sends compact_20260112 past it, and refuses one under the API's 50000", async () => {
    server = await startLoopbackServer([answerOnly]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-anthropic-threshold-"));
    const run = await runCli(["run", "--provider", "anthropic", "--api-key", "k", "--base-url", server.url, "--model", "claude-opus-4-6", "--status-bar", "off", "--compact-threshold", "120000", "Summarise."], { cwd });
    expect(run.code).toBe(0);
    expect(server.requests[0]!.headers["anthropic-beta"]).toBe("compact-2026-01-12");
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ context_management: { edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 120_000 } }] } });
    const refused = await runCli(["run", "--provider", "anthropic", "--api-key", "k", "--base-url", server.url, "--model", "claude-opus-4-6", "--compact-threshold", "1000", "Summarise."], { cwd });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--compact-threshold must be at least 50000 with --provider anthropic");
  });

  it("/compact with --provider openai-responses: /responses/compact compacts before the next message's first call, whose input is the returned window", async () => {
    let answers = 0;
    server = await startLoopbackServer((request) => (request.path === "/responses/compact" ? { headers: { "content-type": "application/json" }, body: documentedCompaction } : recordedResponsesAnswer(300 + 100 * answers++)));
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-compact-responses-"));
    const run = await runCli(["chat", "--provider", "openai-responses", "--base-url", server.url, "--model", "gpt-5.1-codex-max", "--status-bar", "off"], {
      cwd,
      input: ["Create a simple landing page for a dog petting cafe.", { line: "/compact Keep file paths verbatim.", waitFor: "> " }, { line: "Add a menu.", waitFor: "preceded by /responses/compact" }, "/exit"],
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("takes no instructions, so yours are not sent");
    expect(server.requests.map((request) => request.path)).toEqual(["/responses", "/responses/compact", "/responses"]);
    // The pass is sent the conversation so far (with the new message), and the next call starts from the server's window.
    const compactInput = JSON.stringify((JSON.parse(server.requests[1]!.body) as { input: unknown }).input);
    expect(compactInput).toContain("Create a simple landing page");
    expect(compactInput).toContain("Add a menu.");
    const nextInput = (JSON.parse(server.requests[2]!.body) as { input: Array<Record<string, unknown>> }).input;
    expect(nextInput).toContainEqual({ id: "cmp_001", type: "compaction", encrypted_content: "gAAAAABpM0Yj-...=" });
    const edits = (await sessionRecords(cwd)).filter((record) => record.type === "context_edit");
    expect(edits).toEqual([expect.objectContaining({ start: 0, reason: expect.stringContaining("server-side compaction (/responses/compact, requested)") })]);
  });

  it("/compact says what it needs with a provider that does not compact on its side", async () => {
    server = await startLoopbackServer([recordedResponsesAnswer(300)]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-compact-no-"));
    const run = await runCli(["chat", "--provider", "openai-compatible", "--api-key", "k", "--base-url", server.url, "--model", "m", "--status-bar", "off"], { cwd, input: ["/compact", "/exit"] });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("/compact asks the server to compact, which needs --provider anthropic (compact_20260112) or openai-responses");
    expect(server.requests).toHaveLength(0);
  });

  it("/effort mid-session: the next call sends it, the session records it per call, and /usage and inspect name the miss", async () => {
    server = await startLoopbackServer([recordedResponsesAnswer(4300), recordedResponsesAnswer(4400)]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-effort-"));
    const run = await runCli(["chat", "--provider", "openai-responses", "--base-url", server.url, "--model", "gpt-5.1-codex-max", "--status-bar", "off", "--reasoning-effort", "medium"], {
      cwd,
      input: [
        "Compute (12 + 7) × 3 × 10.",
        { line: "/effort high", waitFor: "570" },
        { line: "And again.", waitFor: "from the next call" },
        { line: "/usage", waitFor: "cache miss:" },
        { line: "/exit", waitFor: "cache misses" },
      ],
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ reasoning: { effort: "medium" } });
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({ reasoning: { effort: "high" } });
    expect(run.stdout).toMatch(/call 2: reasoning effort changed \(medium → high\): 4,300 tokens re-billed/);
    // Declared (the user asked for it): no "undeclared cache break" warning.
    expect(run.stderr).not.toContain("Undeclared");
    const records = await sessionRecords(cwd);
    expect(records.filter((record) => record.type === "request").map((record) => record.effort)).toEqual(["medium", "high"]);

    const inspected = await runCli(["inspect", await sessionFile(cwd)], { cwd });
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toMatch(/reasoning effort changed \(medium → high\): 4,300 tokens re-billed/);

    // The session resumes: its last request is rebuilt with the effort it was sent with, byte for byte.
    const resumed = await runCli(["chat", "--provider", "openai-responses", "--base-url", server.url, "--model", "gpt-5.1-codex-max", "--status-bar", "off", "--reasoning-effort", "medium", "--continue"], { cwd, input: ["/exit"] });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
  });
});
