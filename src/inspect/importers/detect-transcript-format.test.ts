import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectTranscriptFormat } from "./detect-transcript-format.js";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

describe("detectTranscriptFormat", () => {
  it.each([
    ["../../session/fixtures/v1-basic.jsonl", "ctxkit"],
    ["fixtures/openai-log.jsonl", "openai-log"],
    ["fixtures/claude-code-session.jsonl", "claude-code"],
    ["fixtures/codex-rollout.jsonl", "codex"],
    ["fixtures/mini-swe-agent.traj.json", "mini-swe-agent"],
    ["fixtures/tau-bench-trajectories.json", "tau-bench"],
    ["fixtures/claude-code-2-1-39-compaction.jsonl", "claude-code"],
    ["fixtures/codex-0104-first-turn.jsonl", "codex"],
    ["fixtures/gemini-cli-0.4x-session.jsonl", "gemini-cli"],
    ["fixtures/gemini-cli-session.json", "gemini-cli"],
    ["fixtures/aider.llm.history", "aider"],
    ["fixtures/claude-code-opus-4-6-1h-writes.jsonl", "claude-code"],
    ["fixtures/claude-code-opus-4-6-cache-expiry.jsonl", "claude-code"],
    ["fixtures/codex-0142-repeated-token-count.jsonl", "codex"],
    ["fixtures/mini-swe-agent-v2.traj.json", "mini-swe-agent"],
    ["fixtures/openhands-claude-3-5-sonnet.json", "openhands"],
    ["fixtures/openhands-gpt-4o-interactions.json", "openhands"],
    ["fixtures/openhands-wrong-initial-state.json", "openhands"],
    ["fixtures/swe-agent-0x-gpt4.traj", "swe-agent"],
    ["fixtures/swe-agent-gpt-4o.traj", "swe-agent"],
    ["fixtures/tau2-bench-results.json", "tau2-bench"],
  ])("recognises %s as %s from its content", (path, format) => {
    expect(detectTranscriptFormat("unnamed", read(path))).toBe(format);
  });

  it("keeps an aider history aider's when a request quotes OpenHands V1 events past its first lines", () => {
    const lines = read("fixtures/aider.llm.history").split("\n");
    const event = '{"kind": "MessageEvent", "source": "user", "llm_message": {"role": "user", "content": []}}';
    const quoting = [...lines.slice(0, 200), `USER ${event}`, ...lines.slice(200)].join("\n");
    expect(quoting.indexOf(event)).toBeGreaterThan(4000);
    expect(detectTranscriptFormat("unnamed", quoting)).toBe("aider");
  });

  it("recognises request lines wrapped as {request, response}", () => {
    expect(detectTranscriptFormat("log", JSON.stringify({ request: { messages: [] }, response: {} }))).toBe("openai-log");
  });

  it("falls back to the file name when the content is not decisive", () => {
    expect(detectTranscriptFormat("runs/task.traj.json", "{\n}")).toBe("mini-swe-agent");
    expect(detectTranscriptFormat("sessions/2025/11/30/rollout-2025-11-30T04-15-02-abc.jsonl", "")).toBe("codex");
  });

  // A library user sets the `format` option, not the CLI's flag: the fix names the option first.
  it("names the known formats, the `format` option and the --format flag when nothing matches", () => {
    expect(() => detectTranscriptFormat("notes.txt", "hello")).toThrow(
      expect.objectContaining({
        code: "transcript_invalid",
        message: expect.stringMatching(/ctxkit, openai-log, claude-code, codex, mini-swe-agent, tau-bench.*the `format` option \(importTranscriptFiles \/ inspectFiles.*CLI: --format/),
      }),
    );
  });
});
