import { describe, expect, it } from "vitest";
import { isServerBlockType } from "./server-block-type.js";

describe("which Anthropic blocks go back to the API unchanged", () => {
  it("keeps a server tool's call and its result by the same rule, the MCP connector's included", () => {
    for (const type of ["server_tool_use", "tool_search_tool_result", "web_search_tool_result", "mcp_tool_use", "mcp_tool_result"]) expect(isServerBlockType(type), type).toBe(true);
  });

  it("leaves the harness's own blocks and anything that is not a type string to their converters", () => {
    for (const type of ["tool_use", "tool_result", "text", "thinking", 7, undefined]) expect(isServerBlockType(type), String(type)).toBe(false);
  });
});
