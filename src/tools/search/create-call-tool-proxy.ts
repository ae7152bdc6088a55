import type { Tool, ToolCallPart } from "../../types/index.js";
import type { ToolCallRoute } from "../../context/context-policy.js";
import { callToolName, toolSearchToolName } from "./tool-discovery.js";

export interface CallToolArgs {
  name: string;
  arguments?: Record<string, unknown> | string;
}

/**
 * `call_tool(name, arguments)`: in `tools` from the first call whenever a tool is deferred, so the
 * prefix never changes when a tool is discovered. The loop routes each call to the named tool
 * (see `routeProxyCall`) before validation, so it is checked, confirmed and run exactly as a direct
 * call; `execute` only runs if no router is installed.
 */
export function createCallToolProxy(): Tool<CallToolArgs> {
  return {
    name: callToolName,
    description:
      `Call a tool that ${toolSearchToolName} found: {"name": "<tool name>", "arguments": {…}}, the arguments matching ` +
      "the parameters in its definition. Tools listed in your tools are called directly, not through this.",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", description: "The tool's name, exactly as in its definition." },
        arguments: { type: "object", description: "The tool's arguments, as its parameters describe." },
      },
      required: ["name"],
      additionalProperties: false,
    },
    source: "trusted",
    async execute(args) {
      return { content: `Error (failed): '${args.name}' could not be routed; this agent has no tool-search policy installed.`, isError: true, errorKind: "failed" };
    },
  };
}

/**
 * The call a `call_tool` call stands for: same id, the target's name, and its arguments — with the
 * exact text the model wrote when it sent them as a JSON string. Undefined arguments (invalid JSON)
 * get the loop's usual "not valid JSON" result for the target.
 */
export function unwrapProxyCall(call: ToolCallPart): ToolCallRoute {
  const args = call.arguments as Partial<CallToolArgs> | null | undefined;
  if (call.arguments === undefined || args === null || typeof args !== "object" || Array.isArray(args) || typeof args.name !== "string" || args.name === "") {
    return {
      type: "error",
      kind: "invalid_arguments",
      message: `Invalid arguments for '${callToolName}': expected {"name": "<tool name>", "arguments": {…}}, got ${truncate(call.argumentsText, 200)}.`,
    };
  }
  const inner = args.arguments;
  if (typeof inner === "string") {
    return { type: "call", call: { type: "tool_call", id: call.id, name: args.name, argumentsText: inner, arguments: safeParse(inner) } };
  }
  const value = inner ?? {};
  return { type: "call", call: { type: "tool_call", id: call.id, name: args.name, argumentsText: JSON.stringify(value), arguments: value } };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
