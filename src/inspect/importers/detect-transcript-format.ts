import { TranscriptError } from "../../types/index.js";
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from "../imported-transcript.js";
import { isRecord } from "./json-guards.js";
import { hasOpenHandsEventMarkers } from "./read-openhands-json-events.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

const codexLineTypes = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);
const claudeCodeLineTypes = new Set(["user", "assistant", "system", "summary", "progress", "file-history-snapshot", "queue-operation"]);
/** Lines read before giving up: the first lines of some formats are ambiguous (a Claude Code summary). */
const maxLinesToClassify = 50;

/**
 * Recognises a transcript's format from its content (file name only as a last hint). Whole-file
 * JSON formats are recognised by a key pattern, so a multi-megabyte file is not parsed twice.
 * Throws `transcript_invalid` naming the formats and the `--format` flag when nothing matches.
 */
export function detectTranscriptFormat(fileName: string, text: string): TranscriptFormat {
  const start = text.trimStart();
  if (start.startsWith("[") && /"traj"\s*:\s*\[/.test(text) && /"task_id"\s*:/.test(text)) return "tau-bench";
  if (start.startsWith("{") && /"trajectory_format"\s*:\s*"mini-swe-agent/.test(text)) return "mini-swe-agent";
  if (start.startsWith("{") && /"history"\s*:\s*\[/.test(text) && /"trajectory"\s*:\s*\[|"message_type"\s*:\s*"system_prompt"/.test(text)) return "swe-agent";
  if (start.startsWith("{") && /"simulations"\s*:\s*\[/.test(text) && /"task_id"\s*:/.test(text)) return "tau2-bench";
  if (start.startsWith("{") && /"projectHash"\s*:/.test(text) && /"sessionId"\s*:/.test(text.slice(0, 2000))) return "gemini-cli";
  if (start.startsWith("[") && /"source"\s*:\s*"(agent|user|environment)"/.test(text) && /"(action|observation)"\s*:/.test(text)) return "openhands";
  if (/^(TO LLM|LLM RESPONSE) \d{4}-\d{2}-\d{2}T/m.test(text.slice(0, 4000))) return "aider";
  // OpenHands V1 events are matched by key patterns anywhere in the text, so only a JSON file or stream,
  // or `openhands --headless --json` output, qualifies: an aider history that quotes such events is aider's.
  if ((start.startsWith("[") || start.startsWith("{") || hasOpenHandsEventMarkers(text.slice(0, 200_000))) && /"kind"\s*:\s*"(SystemPromptEvent|MessageEvent|ActionEvent|ObservationEvent)"/.test(text.slice(0, 200_000)) && /"(llm_message|tool_call_id|system_prompt)"\s*:/.test(text)) {
    return "openhands";
  }
  const fromLines = classifyLines(start);
  if (fromLines !== undefined) return fromLines;
  if (/\.traj\.json$/i.test(fileName)) return "mini-swe-agent";
  if (/(^|[\\/])rollout-[^\\/]*\.jsonl$/i.test(fileName)) return "codex";
  throw new TranscriptError(
    `Cannot tell the transcript format of ${fileName}. Known formats: ${TRANSCRIPT_FORMATS.join(", ")}. ` +
      'Name it with the `format` option (importTranscriptFiles / inspectFiles: { format: "openai-log" } for a JSONL of chat request bodies; CLI: --format openai-log).',
  );
}

function classifyLines(text: string): TranscriptFormat | undefined {
  let examined = 0;
  for (const line of text.split("\n", maxLinesToClassify * 2)) {
    if (line.trim() === "") continue;
    if (++examined > maxLinesToClassify) break;
    let value: unknown;
    try {
      value = parseUntrustedJson(line);
    } catch {
      continue;
    }
    const format = classifyRecord(value);
    if (format !== undefined) return format;
  }
  return undefined;
}

function classifyRecord(value: unknown): TranscriptFormat | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === "header" && value.format === "ctxkit-session") return "ctxkit";
  // Codex rollouts from before the {timestamp, type, payload} envelope mark saved state this way.
  if (value.record_type === "state" && Object.keys(value).length === 1) return "codex";
  if (typeof value.type === "string" && codexLineTypes.has(value.type) && isRecord(value.payload)) return "codex";
  if (typeof value.type === "string" && claudeCodeLineTypes.has(value.type) && ("uuid" in value || "sessionId" in value || "leafUuid" in value)) {
    return "claude-code";
  }
  const body = isRecord(value.request) ? value.request : isRecord(value.body) ? value.body : value;
  if (Array.isArray(body.messages)) return "trajectory_format" in value || "instance_id" in value ? "mini-swe-agent" : "openai-log";
  return undefined;
}
