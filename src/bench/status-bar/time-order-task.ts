import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createWorkspaceTools } from "../../tools/builtin/index.js";
import type { StatusBarTask, TaskHistory } from "./status-bar-task.js";

const readings = [
  { at: "2025-09-12T18:00:00.000Z", code: "amber-42" },
  { at: "2025-09-13T18:00:00.000Z", code: "birch-17" },
  { at: "2025-09-14T09:00:00.000Z", code: "cobalt-09" },
];

/**
 * Time ordering (experiment 2-9, timestamps): the same file was read on three days and changed in
 * between; the user asks what it said yesterday evening. Only event times (and today's date) tell
 * the three readings apart. Success is the middle reading's code, and only it.
 */
export const timeOrderTask: StatusBarTask = {
  name: "time-order",
  summary: "a file read on three days — success = what it said yesterday evening",
  async setup(workspace) {
    const history: TaskHistory[] = readings.map((reading) => ({
      input: "Check the deploy status in status.txt.",
      at: reading.at,
      before: (directory) => writeFile(join(directory, "status.txt"), `deploy state: ${reading.code}\n`),
      turns: [{ toolCalls: [{ name: "read_file", arguments: { path: "status.txt" } }] }, `The deploy state is ${reading.code}.`],
    }));
    return {
      system: "You are an operations assistant with read access to the workspace.",
      tools: createWorkspaceTools({ workspace }).filter((tool) => tool.name === "read_file" || tool.name === "list_dir"),
      history,
      input: "What did status.txt say yesterday evening? Answer with the state code only.",
      at: "2025-09-14T09:05:00.000Z",
    };
  },
  async judge({ result }) {
    const text = result.finalText;
    const right = text.includes("birch-17");
    const wrong = readings.filter((reading) => reading.code !== "birch-17" && text.includes(reading.code)).map((reading) => reading.code);
    return right && wrong.length === 0 ? { success: true, detail: "birch-17" } : { success: false, detail: `answer: ${JSON.stringify(text.slice(0, 80))}` };
  },
  solution() {
    return ["birch-17"];
  },
};
