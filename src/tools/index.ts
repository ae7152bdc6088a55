// `ctxkit/tools`: the built-in workspace tools (read, write, edit, list, glob, grep, bash) for
// library use, confined to a workspace directory, plus the recall and TODO tools.
export * from "./builtin/index.js";
export { resolveWorkspacePath } from "./workspace-path.js";
export { createRecallTool, type RecallArgs, type RecallToolOptions } from "./recall/index.js";
export { createTodoTools } from "./todo/index.js";
export { createNotes, createNotesFile, type NotesFile, type NotesOptions, type NotesPolicy } from "./notes/index.js";
export { defineTool, ToolError, type Tool, type ToolArguments, type ToolContext, type ToolOutput } from "./tool.js";
