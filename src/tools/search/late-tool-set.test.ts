import { describe, expect, it } from "vitest";
import { defineTool } from "../tool.js";
import { createToolSearchPolicy } from "./create-tool-search-policy.js";
import { createLateToolSet } from "./late-tool-set.js";

const tool = (name: string, description: string) =>
  defineTool({ name, description, parameters: { type: "object", properties: { id: { type: "string" } } }, deferred: true, async execute() { return name; } });

describe("a tool-search policy with late tools", () => {
  it("sends tool_search and call_tool with nothing deferred, searches added tools, and rebuilds the index once per change", () => {
    const late = createLateToolSet();
    const policy = createToolSearchPolicy([], { lateTools: late });
    expect(policy.tools?.map((entry) => entry.name)).toEqual(["tool_search", "call_tool"]);
    expect(policy.catalog.search("refund", 5)).toEqual([]);
    late.update({ added: [tool("issue_refund", "Refund a reservation."), tool("flight_status", "Status of a flight.")], removed: [] });
    expect(policy.catalog.search("refund", 5).map((hit) => hit.name)).toEqual(["issue_refund"]);
    expect(policy.catalog.search("flight", 5).map((hit) => hit.name)).toEqual(["flight_status"]);
    expect(policy.catalog.indexBuilds).toBe(2);
    late.update({ added: [], removed: ["issue_refund"] });
    expect(policy.catalog.search("refund", 5)).toEqual([]);
    expect(policy.catalog.indexBuilds).toBe(3);
  });

  it("routes a removed tool to an error result, directly and through call_tool", () => {
    const late = createLateToolSet();
    const policy = createToolSearchPolicy([], { lateTools: late });
    late.update({ added: [], removed: ["mcp__desk__echo"] });
    const call = (name: string, args: unknown) => policy.routeToolCall!({ type: "tool_call", id: "c1", name, argumentsText: JSON.stringify(args), arguments: args }, { messages: [] });
    expect(call("mcp__desk__echo", {})).toMatchObject({ type: "error", kind: "unknown_tool", message: expect.stringContaining("no longer available") });
    expect(call("call_tool", { name: "mcp__desk__echo", arguments: {} })).toMatchObject({ type: "error", kind: "unknown_tool" });
    // Re-added, it is known again.
    late.update({ added: [tool("mcp__desk__echo", "Echo.")], removed: [] });
    expect(late.removed.has("mcp__desk__echo")).toBe(false);
  });
});
