import { describe, expect, it } from "vitest";
import { createBashTool, createEditFileTool, createGlobTool, createGrepTool, createListDirTool, createReadFileTool, createWorkspaceTools, createWriteFileTool } from "./index.js";

// Without `workspace` (plain JavaScript, a cast) the tools were made, and every call then failed with
// Node's 'The "paths[0]" argument must be of type string', as an error result for the model.
const factories = { createWorkspaceTools, createReadFileTool, createWriteFileTool, createEditFileTool, createListDirTool, createGlobTool, createGrepTool, createBashTool } as Record<string, (options: never) => unknown>;

describe("built-in tools without a workspace", () => {
  it.each(Object.keys(factories))("%s refuses to be made, naming the option", (name) => {
    for (const options of [{}, { workspace: "" }, { workspace: 42 }]) {
      expect(() => factories[name]!(options as never)).toThrow(expect.objectContaining({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining(`${name} needs \`workspace\``) }));
    }
  });

  it("still takes a workspace path", () => {
    expect(createWorkspaceTools({ workspace: process.cwd(), enableBash: true }).map((tool) => tool.name)).toContain("bash");
  });
});
