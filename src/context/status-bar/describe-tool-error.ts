import { canonicalJson } from "../../providers/shared/canonical-json.js";
import type { ToolDefinition, ToolErrorKind, ToolMessage } from "../../types/index.js";
import type { ToolResultInfo } from "../context-policy.js";
import { describeSchemaExpectation } from "./describe-schema-expectation.js";

export interface DescribeToolErrorOptions {
  /** The workspace the tools resolve paths in. */
  workingDirectory?: string;
  tools?: readonly ToolDefinition[];
}

/**
 * Rewrites a failed result so the model can act on it instead of retrying blindly (seed, experiment
 * 2-9: "详细错误信息" raised recovery from 60% to 95%): the error kind and message as the tool gave
 * them, the exact arguments of the call, and concrete next steps for that kind. Successful results
 * pass unchanged. Pure; decided once, before the result is frozen.
 */
export function describeToolError(result: ToolMessage, info: ToolResultInfo, options: DescribeToolErrorOptions = {}): ToolMessage {
  if (!result.isError) return result;
  const kind: ToolErrorKind = info.errorKind ?? "failed";
  const args = info.call.arguments === undefined ? `(not valid JSON) ${truncate(info.call.argumentsText, 500)}` : truncate(canonicalJson(info.call.arguments), 500);
  const lines = [
    result.content.startsWith("Error (") ? result.content : `Error (${kind}): ${result.content}`,
    `Called with: ${info.call.name} ${args}`,
    "What to do next:",
    ...suggestionsFor(kind, info, options).map((suggestion) => `- ${suggestion}`),
  ];
  return { ...result, content: lines.join("\n") };
}

function suggestionsFor(kind: ToolErrorKind, info: ToolResultInfo, options: DescribeToolErrorOptions): string[] {
  const where = options.workingDirectory ? ` (${options.workingDirectory})` : "";
  switch (kind) {
    case "not_found": {
      const path = pathArgument(info.call.arguments);
      const name = path?.split(/[\\/]/).filter(Boolean).at(-1);
      return [
        `List the directory you expected it in (list_dir)${name ? `, or search for it by name (glob "**/${name}")` : ""}, to see what exists.`,
        `Check the working directory: paths are relative to the workspace root${where}, not to the last file you read.`,
        "Use the path relative to the workspace exactly as list_dir or glob prints it; do not guess absolute paths.",
      ];
    }
    case "permission":
      return [
        `The path is outside the workspace${where} or not accessible; use a path inside the workspace.`,
        "Do not retry the same path. If you need something outside the workspace, ask the user.",
      ];
    case "timeout":
      return [
        "Make the call smaller: a narrower path or pattern, a line range, or a command that limits its output or runs faster.",
        "Retrying it unchanged will most likely time out again.",
      ];
    case "invalid_arguments": {
      const tool = options.tools?.find((candidate) => candidate.name === info.call.name);
      return [
        tool ? `Call '${tool.name}' again with arguments that match its parameters — ${describeSchemaExpectation(tool.parameters)}.` : "Call the tool again with arguments that match its parameters.",
        "Send one JSON object; check names, types and required keys against the message above.",
      ];
    }
    case "unknown_tool":
      return ["Use one of the available tools named in the message above; check the spelling and do not invent tool names."];
    case "rejected":
      return ["This call was declined. Do not retry it unchanged; ask the user how to proceed or choose another way that does not need it."];
    case "failed":
      return [
        "Read the message above for the cause, then change the arguments or the approach before calling again.",
        "If the same call keeps failing, try an alternative or tell the user what blocks you.",
      ];
  }
}

function pathArgument(args: unknown): string | undefined {
  if (args === null || typeof args !== "object") return undefined;
  const record = args as Record<string, unknown>;
  const value = record.path ?? record.file ?? record.file_path ?? record.filename;
  return typeof value === "string" ? value : undefined;
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length} characters)`;
}
