import { readFileSync } from "node:fs";
import { type ToolDefinition, TranscriptError } from "../../types/index.js";
import { convertOpenAITools } from "./convert-openai-tools.js";
import { isRecord } from "./json-guards.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";
import { stripByteOrderMark } from "../../types/byte-order-mark.js";

/**
 * Reads a JSON file of OpenAI tool schemas (an array, or `{tools: [...]}`) — for formats that do
 * not record the tools, such as τ-bench trajectories, whose tools ship as `tools.json`.
 */
export function loadOpenAIToolsFile(path: string): ToolDefinition[] {
  let text: string;
  try {
    text = stripByteOrderMark(readFileSync(path, "utf8"));
  } catch (error) {
    throw new TranscriptError(`Cannot read the tools file ${path}: ${(error as Error).message}. Pass an existing JSON file to --tools.`, {
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    throw new TranscriptError(`The tools file ${path} is not valid JSON (${(error as Error).message}).`, { cause: error });
  }
  const list = isRecord(value) ? value.tools : value;
  const tools = convertOpenAITools(list, "tools");
  if (typeof tools === "string") {
    throw new TranscriptError(
      `The tools file ${path} is not a list of OpenAI tool schemas (${tools}). Expected [{"type": "function", "function": {"name", "description", "parameters"}}].`,
    );
  }
  return tools;
}
