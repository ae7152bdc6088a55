import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import type { ScriptedTurn } from "../../providers/scripted/scripted-turn.js";
import { callLimitTask } from "./call-limit-task.js";
import { missingFileTask } from "./missing-file-task.js";
import { runStatusBarLiveBench } from "./run-status-bar-live-bench.js";
import { runStatusBarTask } from "./run-status-bar-task.js";
import { statusBarArms } from "./status-bar-arms.js";
import { timeOrderTask } from "./time-order-task.js";
import { todoFilesTask } from "./todo-files-task.js";

const scripted = (turns: ScriptedTurn[]) => createScriptedProvider({ turns });

describe("the status-bar benchmark harness (offline, scripted models)", () => {
  it("solves every task under every arm with the scripted solutions, so the judges accept a right answer", async () => {
    const report = await runStatusBarLiveBench();
    expect(report.results).toHaveLength(4 * statusBarArms.length);
    expect(report.results.filter((result) => !result.success)).toEqual([]);
    expect(report.results.every((result) => result.stopReason === "final_answer" && result.usage.inputTokens > 0)).toBe(true);
  });

  it("judges wrong behaviour as failure", async () => {
    const fourthCall = scripted([{ toolCalls: [{ name: "phone_call", arguments: { company: "Xfinity", purpose: "again" } }] }, "Called again."]);
    expect(await runStatusBarTask(callLimitTask, "all-on", { provider: fourthCall })).toMatchObject({ success: false, detail: "called Xfinity 1 more time(s)" });
    expect(await runStatusBarTask(missingFileTask, "all-on", { provider: scripted(["I could not find the file."]) })).toMatchObject({ success: false });
    expect(await runStatusBarTask(timeOrderTask, "all-on", { provider: scripted(["amber-42 or birch-17"]) })).toMatchObject({ success: false });
    const partial = scripted([{ toolCalls: [{ name: "write_file", arguments: { path: "out/name.txt", content: "orion" } }] }, "Done."]);
    expect(await runStatusBarTask(todoFilesTask, "all-on", { provider: partial })).toMatchObject({ success: false, detail: expect.stringContaining("out/rows.txt") });
  });

  it("gives each arm the context it names: history stamped per arm, tail and TODO tools only when on", async () => {
    const requests = async (arm: (typeof statusBarArms)[number]) => {
      const provider = scripted(["birch-17"]);
      await runStatusBarTask(timeOrderTask, arm, { provider });
      return provider.requests[0]!;
    };
    const allOn = await requests("all-on");
    expect(allOn.tail?.content).toContain("time: 2025-09-14 09:05:");
    expect(allOn.tools.map((tool) => tool.name)).toContain("rewrite_todo_list");
    const results = allOn.messages.filter((message) => message.role === "tool").map((message) => message.content);
    expect(results.map((content) => content.slice(1, 11))).toEqual(["2025-09-12", "2025-09-13", "2025-09-14"]);

    const noTimestamps = await requests("no-timestamps");
    expect(noTimestamps.messages.filter((message) => message.role === "tool").every((message) => message.content.startsWith("[Tool call #"))).toBe(true);
    expect(noTimestamps.messages[0]!.content).toBe("Check the deploy status in status.txt.");

    const allOff = await requests("all-off");
    expect(allOff.tail).toBeUndefined();
    expect(allOff.tools.map((tool) => tool.name)).toEqual(["list_dir", "read_file"]);
    expect(allOff.messages.find((message) => message.role === "tool")!.content).toBe("     1\tdeploy state: amber-42");
  });
});
