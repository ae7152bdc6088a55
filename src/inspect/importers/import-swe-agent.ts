import type { AssistantMessage, Message } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportResult } from "../imported-transcript.js";
import { convertOpenAIMessage } from "./convert-openai-message.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalCount, optionalString, type JsonObject } from "./json-guards.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

/**
 * Imports a SWE-agent trajectory (`.traj`: `{trajectory, history, info, …}`). `history` is the main
 * agent's conversation in OpenAI's format (system, demonstrations, the task, then `action` and
 * `observation` messages); each assistant message there is a call that saw everything before it.
 * Newer versions keep the exact messages of each call in `trajectory[i].query`, which wins (history
 * processors may have elided old observations). The final step (`submit`) is only in `trajectory`.
 * SWE-agent records usage only for the whole run (`info.model_stats`), never per call; a note says so.
 */
export function importSweAgent(text: string, file: string): ImportResult {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    return { transcripts: [], problems: [{ file, reason: `not valid JSON (${(error as Error).message})` }] };
  }
  if (!isRecord(value) || !Array.isArray(value.history) || (value.trajectory !== undefined && !Array.isArray(value.trajectory))) {
    return { transcripts: [], problems: [{ file, reason: "expected a SWE-agent trajectory {trajectory: [...], history: [...], info}" }] };
  }
  const id = transcriptIdFromFile(file).replace(/\.traj$/i, "");
  const toolNames = new Map<string, string>();
  const history: Message[] = [];
  // The run's own agent is "main" in SWE-agent 1.x and "primary" in 0.x, named by the first entry that
  // names one (an entry without a name is the run's); others (reviewers) are other runs.
  const named: unknown = value.history.find((entry) => isRecord(entry) && typeof entry.agent === "string");
  const mainAgent = isRecord(named) ? (optionalString(named.agent) ?? "main") : "main";
  for (const [index, raw] of value.history.entries()) {
    if (isRecord(raw) && raw.agent !== undefined && raw.agent !== mainAgent) continue;
    const converted = convertOpenAIMessage(normalizeToolMessage(raw), { id: `${id}:${index}`, createdAt: "", toolNames }, `history[${index}]`);
    if (!converted.ok) return { transcripts: [], problems: [{ file, reason: converted.reason }] };
    history.push(converted.message);
  }
  // Demonstration files (`trajectories/demonstrations/*.traj`) hold only `history`.
  const steps = Array.isArray(value.trajectory) ? value.trajectory.filter(isRecord) : [];
  const calls: ImportedCall[] = [];
  let step = 0;
  for (const [index, message] of history.entries()) {
    if (message.role !== "assistant") continue;
    const query = steps[step]?.query;
    const seen = Array.isArray(query) ? convertQuery(query, `${id}:call${step}`) : history.slice(0, index);
    calls.push(toCall(seen ?? history.slice(0, index), message, file));
    step++;
  }
  // The last step (the `submit` that ends the run) is in `trajectory` but not in `history`.
  for (; step < steps.length; step++) {
    const recorded = steps[step]!;
    const text = [optionalString(recorded.response) ?? optionalString(recorded.thought) ?? "", optionalString(recorded.action) ?? ""].filter((part) => part !== "").join("\n\n");
    const response: AssistantMessage = { role: "assistant", content: text === "" ? [] : [{ type: "text", text }], meta: { id: `${id}:step${step}`, origin: "model", createdAt: "" } };
    const query = recorded.query;
    calls.push(toCall((Array.isArray(query) ? convertQuery(query, `${id}:call${step}`) : undefined) ?? history, response, file));
  }
  const info = isRecord(value.info) ? value.info : {};
  const stats = isRecord(info.model_stats) ? info.model_stats : {};
  const system = history[0]?.role === "system";
  const usesToolCalls = history.some((message) => message.role === "assistant" && message.content.some((part) => part.type === "tool_call"));
  const transcript: ImportedTranscript = { id, format: "swe-agent", file, calls, toolsKnown: !usesToolCalls, systemKnown: system };
  const model = modelName(value.replay_config);
  if (model !== undefined) transcript.model = model;
  transcript.meta = { exitStatus: info.exit_status, modelStats: stats };
  transcript.notes = runTotalsNote(stats, calls.length);
  return { transcripts: [transcript], problems: [] };
}

/** SWE-agent writes `tool_call_ids: [id]` on observations; OpenAI's format has one `tool_call_id`. */
function normalizeToolMessage(raw: unknown): unknown {
  if (!isRecord(raw) || raw.role !== "tool" || raw.tool_call_id !== undefined || !Array.isArray(raw.tool_call_ids)) return raw;
  return { ...raw, tool_call_id: raw.tool_call_ids[0] };
}

function convertQuery(query: unknown[], idPrefix: string): Message[] | undefined {
  const toolNames = new Map<string, string>();
  const messages: Message[] = [];
  for (const [index, raw] of query.entries()) {
    const converted = convertOpenAIMessage(normalizeToolMessage(raw), { id: `${idPrefix}.${index}`, createdAt: "", toolNames }, `query[${index}]`);
    if (!converted.ok) return undefined;
    messages.push(converted.message);
  }
  return messages;
}

function toCall(seen: Message[], response: AssistantMessage, file: string): ImportedCall {
  const [first, ...rest] = seen;
  const request = first?.role === "system" ? createImportedRequest({ system: first.content, messages: rest }) : createImportedRequest({ messages: seen });
  return { request, response, source: { file } };
}

function modelName(replayConfig: unknown): string | undefined {
  // replay_config is the run's configuration, stored as a JSON string in some versions.
  let config: unknown = replayConfig;
  if (typeof config === "string") {
    try {
      config = parseUntrustedJson(config);
    } catch {
      return undefined;
    }
  }
  const agent = isRecord(config) && isRecord(config.agent) ? config.agent : {};
  const model = isRecord(agent.model) ? (agent.model as JsonObject) : {};
  return optionalString(model.name);
}

function runTotalsNote(stats: JsonObject, calls: number): string[] {
  const sent = optionalCount(stats.tokens_sent);
  const received = optionalCount(stats.tokens_received);
  if (sent === undefined && received === undefined) return [];
  const cost = typeof stats.instance_cost === "number" ? `, $${stats.instance_cost.toFixed(4)}` : "";
  return [
    `SWE-agent records usage only for the whole run: ${sent ?? "?"} prompt tokens sent, ${received ?? "?"} received over ${optionalCount(stats.api_calls) ?? calls} calls${cost}; ` +
      "per-call cached tokens are not recorded.",
  ];
}
