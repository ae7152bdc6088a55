import { describe, expect, it } from "vitest";
import { builtinToolNames, createWorkspaceTools } from "./index.js";

describe("createWorkspaceTools", () => {
  it("creates every tool but bash unless bash is enabled", () => {
    const withoutBash = createWorkspaceTools({ workspace: "/tmp" }).map((tool) => tool.name);
    expect(withoutBash).toEqual(builtinToolNames.filter((name) => name !== "bash"));
    const withBash = createWorkspaceTools({ workspace: "/tmp", enableBash: true }).map((tool) => tool.name);
    expect(withBash).toEqual([...builtinToolNames]);
  });

  it("describes every tool for the model with a strict object schema", () => {
    for (const tool of createWorkspaceTools({ workspace: "/tmp", enableBash: true })) {
      expect(tool.description, tool.name).toContain("Example: {");
      expect(tool.parameters.type, tool.name).toBe("object");
      expect(tool.parameters.additionalProperties, tool.name).toBe(false);
      expect(Array.isArray(tool.parameters.required), tool.name).toBe(true);
      const properties = tool.parameters.properties as Record<string, { description?: string }>;
      for (const [name, property] of Object.entries(properties)) {
        expect(property.description, `${tool.name}.${name}`).toBeTruthy();
      }
      for (const required of tool.parameters.required as string[]) expect(properties).toHaveProperty(required);
    }
  });

  it("marks read-only tools parallel-safe and changing tools as needing confirmation", () => {
    const tools = new Map(createWorkspaceTools({ workspace: "/tmp", enableBash: true }).map((tool) => [tool.name, tool]));
    for (const name of ["read_file", "list_dir", "glob", "grep"]) {
      expect(tools.get(name)?.parallelSafe, name).toBe(true);
      expect(tools.get(name)?.requiresConfirmation, name).toBeFalsy();
    }
    for (const name of ["write_file", "edit_file", "bash"]) {
      expect(tools.get(name)?.parallelSafe, name).toBe(false);
      expect(tools.get(name)?.requiresConfirmation, name).toBe(true);
    }
  });

  it("keeps the example in each description valid JSON", () => {
    for (const tool of createWorkspaceTools({ workspace: "/tmp", enableBash: true })) {
      const example = tool.description.slice(tool.description.indexOf("Example: ") + "Example: ".length);
      expect(() => JSON.parse(example) as unknown, tool.name).not.toThrow();
    }
  });
});
