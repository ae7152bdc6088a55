import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createWorkspaceTools } from "../../tools/builtin/index.js";
import type { StatusBarTask } from "./status-bar-task.js";
import { makeDirectoryTree } from "../../types/make-directory-tree.js";

/**
 * Recovery from a wrong path (experiment 2-9, detailed errors): the user names a file that is not
 * where they say. Success is finding it anyway and answering with the number in it.
 */
export const missingFileTask: StatusBarTask = {
  name: "missing-file",
  summary: "the named file is elsewhere — success = the revenue figure from the real file",
  async setup(workspace) {
    await makeDirectoryTree(join(workspace, "reports", "2024"));
    await writeFile(join(workspace, "reports", "2024", "q3-summary.txt"), "Q3 summary\nRevenue: 48,213 EUR\nCosts: 31,907 EUR\n");
    await writeFile(join(workspace, "reports", "README.md"), "Quarterly reports, one folder per year.\n");
    return {
      system: "You are a helpful assistant with read access to the user's workspace. Answer from the files.",
      tools: createWorkspaceTools({ workspace }).filter((tool) => ["read_file", "list_dir", "glob", "grep"].includes(tool.name)),
      input: "Read reports/q3-summary.txt and tell me the Q3 revenue.",
      at: "2025-09-14T10:00:00.000Z",
    };
  },
  async judge({ result }) {
    const found = /48[,.]?213/.test(result.finalText);
    return { success: found && result.stopReason === "final_answer", detail: found ? "found 48,213" : `answer: ${JSON.stringify(result.finalText.slice(0, 80))}` };
  },
  solution() {
    return [
      { toolCalls: [{ name: "read_file", arguments: { path: "reports/q3-summary.txt" } }] },
      { toolCalls: [{ name: "list_dir", arguments: { path: "reports" } }] },
      { toolCalls: [{ name: "list_dir", arguments: { path: "reports/2024" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "reports/2024/q3-summary.txt" } }] },
      "The file is at reports/2024/q3-summary.txt: Q3 revenue was 48,213 EUR.",
    ];
  },
};
