import { describe, expect, it } from "vitest";
import { convertMiniSweAgentCommands } from "../src/bench/replay/convert-mini-swe-agent-commands.js";
import { toRecordedRun } from "../src/bench/replay/recorded-run.js";
import { importMiniSweAgent } from "../src/inspect/index.js";
import { assistant, roles, user } from "./replay-support.js";

const thought = "THOUGHT: list the files.\n\n```bash\nls -la src\n```";
const observation = "<returncode>0</returncode>\n<output>\nmain.py\n</output>";

describe("mini-swe-agent commands as tool calls", () => {
  it("turns a bash block followed by an observation into a bash tool call and a tool result", () => {
    const converted = convertMiniSweAgentCommands([user("m1", "task"), assistant("m2", thought), user("m3", observation, "tool")]);
    expect(roles(converted)).toEqual(["user", "assistant", "tool"]);
    expect(converted[1]).toMatchObject({
      content: [
        { type: "text", text: "THOUGHT: list the files." },
        { type: "tool_call", id: "m2:bash", name: "bash", argumentsText: '{"command":"ls -la src"}', arguments: { command: "ls -la src" } },
      ],
      stopReason: "tool_calls",
    });
    expect(converted[2]).toMatchObject({ role: "tool", toolCallId: "m2:bash", toolName: "bash", content: observation, isError: false, meta: { id: "m3" } });
  });

  it("marks a non-zero return code as an error and leaves format errors and the final submission as user messages", () => {
    const failed = "<returncode>1</returncode>\n<output>\nnope\n</output>";
    const converted = convertMiniSweAgentCommands([
      user("m1", "task"),
      assistant("m2", "THOUGHT: two blocks\n```bash\nls\n```\n```bash\npwd\n```"),
      user("m3", "Please always provide EXACTLY ONE action in triple backticks, found 2 actions.", "harness"),
      assistant("m4", "```bash\ngrep -n x y\n```"),
      user("m5", failed, "tool"),
      assistant("m6", "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff\n```"),
      user("m7", "diff --git a/x b/x", "harness"),
    ]);
    expect(roles(converted)).toEqual(["user", "assistant", "user", "assistant", "tool", "assistant", "user"]);
    expect(converted[4]).toMatchObject({ role: "tool", isError: true });
    expect(converted[3]).toMatchObject({ content: [{ type: "tool_call", arguments: { command: "grep -n x y" } }] });
  });

  it("rebuilds an imported trajectory as one conversation with a bash tool", () => {
    const trajectory = {
      info: { exit_status: "Submitted", config: { model: { model_name: "test-model" } } },
      trajectory_format: "mini-swe-agent-1",
      instance_id: "repo__issue-1",
      messages: [
        { role: "system", content: "You run commands." },
        { role: "user", content: "<pr_description>Fix it</pr_description>" },
        { role: "assistant", content: thought, extra: { response: { usage: { prompt_tokens: 50, completion_tokens: 7 } } } },
        { role: "user", content: observation },
        { role: "assistant", content: "THOUGHT: done\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```" },
        { role: "user", content: "diff" },
      ],
    };
    const imported = importMiniSweAgent(JSON.stringify(trajectory), "repo__issue-1.traj.json");
    const run = toRecordedRun(imported.transcripts[0]!);
    expect(run.system.staticText).toBe("You run commands.");
    expect(run.tools.map((tool) => tool.name)).toEqual(["bash"]);
    expect(roles(run.messages)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(run.calls).toEqual([{ index: 1, reportedUsage: { promptTokens: 50, completionTokens: 7 } }, { index: 3 }]);
    expect(run.truncated).toBeUndefined();
  });
});
