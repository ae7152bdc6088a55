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
  ])("recognises %s as %s from its content", (path, format) => {
    expect(detectTranscriptFormat("unnamed", read(path))).toBe(format);
  });

  it("recognises request lines wrapped as {request, response}", () => {
    expect(detectTranscriptFormat("log", JSON.stringify({ request: { messages: [] }, response: {} }))).toBe("openai-log");
  });

  it("falls back to the file name when the content is not decisive", () => {
    expect(detectTranscriptFormat("runs/task.traj.json", "{\n}")).toBe("mini-swe-agent");
    expect(detectTranscriptFormat("sessions/2025/11/30/rollout-2025-11-30T04-15-02-abc.jsonl", "")).toBe("codex");
  });

  it("names the known formats and the --format flag when nothing matches", () => {
    expect(() => detectTranscriptFormat("notes.txt", "hello")).toThrow(
      expect.objectContaining({
        code: "transcript_invalid",
        message: expect.stringMatching(/ctxkit, openai-log, claude-code, codex, mini-swe-agent, tau-bench.*--format/),
      }),
    );
  });
});
