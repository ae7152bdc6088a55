import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ScriptedTurn } from "../../providers/scripted/scripted-turn.js";
import { createWorkspaceTools } from "../../tools/builtin/index.js";
import type { StatusBarTask } from "./status-bar-task.js";
import { makeDirectoryTree } from "../../types/make-directory-tree.js";

const inventory = "sku,name,qty\nA-1,bolts,120\nA-2,nuts,75\nB-7,washers,310\nC-3,hinges,12\nC-9,brackets,46\n";
/** What each output must hold, as the judge checks it. */
const expected: Record<string, string> = {
  "out/name.txt": "orion",
  "out/rows.txt": "5",
  "out/qty.txt": "563",
  "out/done.txt": "done",
};

/**
 * A TODO-heavy multi-step file task (experiment 2-9, TODO list): five small steps that are easy
 * one by one and easy to lose track of. Success is all five results in place.
 */
export const todoFilesTask: StatusBarTask = {
  name: "todo-files",
  summary: "five file steps in one request — success = all five outputs correct",
  async setup(workspace) {
    await makeDirectoryTree(join(workspace, "notes"));
    await writeFile(join(workspace, "config.json"), JSON.stringify({ name: "orion", version: "2.4.1", owner: "platform" }, null, 2) + "\n");
    await writeFile(join(workspace, "inventory.csv"), inventory);
    await writeFile(join(workspace, "notes", "draft.md"), "# Release notes\n\nTODO: replace me\n");
    return {
      system: "You are a careful coding agent working in the user's workspace through tools. Do every step the user asks for, then answer briefly.",
      tools: createWorkspaceTools({ workspace }).filter((tool) => ["read_file", "write_file", "edit_file", "list_dir", "glob", "grep"].includes(tool.name)),
      input:
        "Please do all of these in the workspace: (1) write the project name from config.json into out/name.txt; " +
        "(2) write the number of data rows of inventory.csv (without the header) into out/rows.txt; " +
        "(3) in notes/draft.md replace the line 'TODO: replace me' with 'Release 2.4.1'; " +
        "(4) write the sum of the qty column of inventory.csv into out/qty.txt; " +
        "(5) create out/done.txt containing the word done. Each output file holds just the value. Then reply with one line.",
      at: "2025-09-14T10:00:00.000Z",
    };
  },
  async judge({ workspace }) {
    const missing: string[] = [];
    for (const [path, value] of Object.entries(expected)) {
      const content = await readFile(join(workspace, path), "utf8").catch(() => undefined);
      if (content?.trim() !== value) missing.push(path);
    }
    const draft = await readFile(join(workspace, "notes", "draft.md"), "utf8").catch(() => "");
    if (!draft.includes("Release 2.4.1") || draft.includes("TODO: replace me")) missing.push("notes/draft.md");
    return missing.length === 0 ? { success: true, detail: "all 5 steps done" } : { success: false, detail: `wrong or missing: ${missing.join(", ")}` };
  },
  solution(hasTool) {
    const todo = (calls: ScriptedTurn): ScriptedTurn[] => (hasTool("update_todo_status") ? [calls] : []);
    const status = (done: string, next?: string) =>
      todo({ toolCalls: [{ name: "update_todo_status", arguments: { updates: [{ id: done, status: "completed" }, ...(next ? [{ id: next, status: "in_progress" }] : [])] } }] });
    const steps = ["Write the project name", "Count the data rows", "Edit the draft", "Sum the qty column", "Write done.txt"];
    return [
      ...todo({ toolCalls: [{ name: "rewrite_todo_list", arguments: { items: steps.map((content, index) => ({ id: String(index + 1), content, status: index === 0 ? "in_progress" : "pending" })) } }] }),
      { toolCalls: [{ name: "read_file", arguments: { path: "config.json" } }, { name: "read_file", arguments: { path: "inventory.csv" } }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "out/name.txt", content: "orion\n" } }] },
      ...status("1", "2"),
      { toolCalls: [{ name: "write_file", arguments: { path: "out/rows.txt", content: "5\n" } }] },
      ...status("2", "3"),
      { toolCalls: [{ name: "edit_file", arguments: { path: "notes/draft.md", old_string: "TODO: replace me", new_string: "Release 2.4.1" } }] },
      ...status("3", "4"),
      { toolCalls: [{ name: "write_file", arguments: { path: "out/qty.txt", content: "563\n" } }] },
      ...status("4", "5"),
      { toolCalls: [{ name: "write_file", arguments: { path: "out/done.txt", content: "done\n" } }] },
      ...status("5"),
      "All five steps are done.",
    ];
  },
};
