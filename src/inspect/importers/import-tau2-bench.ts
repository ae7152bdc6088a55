import type { AssistantPart, Message } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportProblem, ImportResult } from "../imported-transcript.js";
import { convertOpenAIReportedUsage } from "./convert-openai-reported-usage.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalCount, optionalString, parseArguments, type JsonObject } from "./json-guards.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

/**
 * Imports a τ²-bench results file `{timestamp, info, tasks, simulations: [...]}`: one transcript per
 * simulation. Its `messages` are the agent's view of the dialogue — `user` turns from the simulated
 * user, `assistant` turns with `tool_calls: [{id, name, arguments: {…}}]` (arguments as an object),
 * `tool` results with `id` and `error` — and each assistant message is a call that saw everything
 * before it, with its own `usage` and `cost` when the agent recorded them (the fixed opening
 * greeting has neither and is no call; a custom agent may record neither on any turn, and the usage
 * on `user` turns is the user simulator's, not the agent's). The system prompt wraps `info.environment_info.policy`
 * in a template the file does not keep, and tools are only named: both are marked unknown.
 */
export function importTau2Bench(text: string, file: string): ImportResult {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    return { transcripts: [], problems: [{ file, reason: `not valid JSON (${(error as Error).message})` }] };
  }
  if (!isRecord(value) || !Array.isArray(value.simulations)) return { transcripts: [], problems: [{ file, reason: "expected τ²-bench results {info, tasks, simulations: [...]}" }] };
  const info = isRecord(value.info) ? value.info : {};
  const agent = isRecord(info.agent_info) ? info.agent_info : {};
  const environment = isRecord(info.environment_info) ? info.environment_info : {};
  const model = optionalString(agent.llm);
  const transcripts: ImportedTranscript[] = [];
  const problems: ImportProblem[] = [];
  for (const [index, simulation] of value.simulations.entries()) {
    if (!isRecord(simulation) || !Array.isArray(simulation.messages)) {
      problems.push({ file, reason: `simulations[${index}]: expected {task_id, trial, messages: [...]}` });
      continue;
    }
    const id = `task${String(simulation.task_id)}-trial${String(simulation.trial ?? 0)}`;
    const transcript: ImportedTranscript = { id, format: "tau2-bench", file, calls: callsOf(simulation.messages, id, model, file), toolsKnown: false, systemKnown: false };
    if (model !== undefined) transcript.model = model;
    if (transcript.calls.length > 0 && transcript.calls.every((call) => call.reportedUsage === undefined)) {
      transcript.notes = [`τ²-bench recorded no usage for this agent (${optionalString(agent.implementation) ?? "unnamed"}): token counts are estimates.`];
    }
    const reward = isRecord(simulation.reward_info) ? simulation.reward_info.reward : undefined;
    transcript.meta = { taskId: simulation.task_id, trial: simulation.trial, reward, domain: environment.domain_name, terminationReason: simulation.termination_reason };
    transcripts.push(transcript);
  }
  return { transcripts, problems };
}

function callsOf(raw: unknown[], id: string, model: string | undefined, file: string): ImportedCall[] {
  const history: Message[] = [];
  const calls: ImportedCall[] = [];
  const toolNames = new Map<string, string>();
  for (const [index, entry] of raw.entries()) {
    if (!isRecord(entry)) continue;
    const meta = { id: `${id}:${index}`, createdAt: optionalString(entry.timestamp) ?? "" };
    if (entry.role === "user" && !Array.isArray(entry.tool_calls)) history.push({ role: "user", content: optionalString(entry.content) ?? "", meta: { ...meta, origin: "user" } });
    else if (entry.role === "tool") {
      const toolCallId = optionalString(entry.id) ?? "";
      history.push({ role: "tool", toolCallId, toolName: toolNames.get(toolCallId) ?? "", content: optionalString(entry.content) ?? "", isError: entry.error === true, meta: { ...meta, origin: "tool" } });
    } else if (entry.role === "assistant") {
      const response = { role: "assistant" as const, content: assistantParts(entry, toolNames), meta: { ...meta, origin: "model" as const } };
      // τ²-bench opens with a fixed greeting it writes itself (no usage, no cost): no model call. Later
      // turns without usage are still calls: agents other than its own LLM agent record none.
      if (history.length === 0 && (entry.usage === null || entry.usage === undefined) && !(typeof entry.cost === "number" && entry.cost > 0)) {
        history.push({ ...response, meta: { ...response.meta, origin: "harness" } });
        continue;
      }
      const call: ImportedCall = { request: createImportedRequest({ messages: history.slice() }), response, source: { file } };
      const usage = convertOpenAIReportedUsage(entry.usage);
      const cost = optionalCount(entry.cost);
      if (usage !== undefined || cost !== undefined) call.reportedUsage = { ...usage, ...(cost === undefined ? {} : { cost }) };
      if (model !== undefined) call.model = model;
      calls.push(call);
      history.push(response);
    }
  }
  return calls;
}

function assistantParts(entry: JsonObject, toolNames: Map<string, string>): AssistantPart[] {
  const parts: AssistantPart[] = [];
  const text = optionalString(entry.content) ?? "";
  if (text !== "") parts.push({ type: "text", text });
  for (const call of Array.isArray(entry.tool_calls) ? entry.tool_calls.filter(isRecord) : []) {
    const id = optionalString(call.id) ?? "";
    const name = optionalString(call.name) ?? "";
    toolNames.set(id, name);
    const argumentsText = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {});
    parts.push({ type: "tool_call", id, name, argumentsText, arguments: parseArguments(argumentsText) });
  }
  return parts;
}
