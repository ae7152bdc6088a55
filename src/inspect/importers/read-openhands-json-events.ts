import type { ImportProblem } from "../imported-transcript.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";
import { isRecord, type JsonObject } from "./json-guards.js";

/** The line OpenHands CLI's `json_callback` prints before each event. */
const eventMarker = "--JSON Event--";

/** Whether `text` holds `openhands --headless --json` output: a line that is the event marker. */
export function hasOpenHandsEventMarkers(text: string): boolean {
  return /^--JSON Event--\r?$/m.test(text);
}

/**
 * Reads the standard output of `openhands --headless --json` (OpenHands CLI 1.x). It is not JSONL:
 * the CLI's `json_callback` prints a `--JSON Event--` line, then `json.dumps(event.model_dump(),
 * indent=2, sort_keys=True)`, so each event spans many lines and ends with a `}` alone at the start
 * of a line; the SystemPromptEvent is never printed; and the CLI's own lines (a banner, "Agent
 * finished", the conversation id) stand between events and are ignored. One pass over the lines.
 */
export function readOpenHandsJsonEvents(text: string, file: string): { events: JsonObject[]; problems: ImportProblem[] } {
  const events: JsonObject[] = [];
  const problems: ImportProblem[] = [];
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  let index = 0;
  while (index < lines.length) {
    if (lines[index] !== eventMarker) {
      index += 1;
      continue;
    }
    const markerLine = index + 1;
    const first = index + 1;
    // A compact event fits its first line; a pretty-printed one closes with "}" at column 0. An event
    // cut short ends at the next marker, which then starts the next event.
    const compact = compactEvent(lines[first]);
    if (compact !== undefined) {
      events.push(compact);
      index = first + 1;
      continue;
    }
    let end = first;
    while (end < lines.length && lines[end] !== eventMarker) {
      end += 1;
      if (lines[end - 1] === "}") break;
    }
    const eventText = lines.slice(first, end).join("\n");
    index = end;
    try {
      const event: unknown = parseUntrustedJson(eventText);
      if (isRecord(event)) events.push(event);
      else problems.push({ file, line: markerLine, reason: "expected an OpenHands event object after --JSON Event--" });
    } catch (error) {
      problems.push({ file, line: markerLine, reason: `the event after --JSON Event-- is not valid JSON (${(error as Error).message})` });
    }
  }
  return { events, problems };
}

/** The event of a line that is a whole JSON object, parsed once; undefined otherwise. */
function compactEvent(line: string | undefined): JsonObject | undefined {
  if (line === undefined || !line.startsWith("{") || !line.endsWith("}")) return undefined;
  try {
    const event: unknown = parseUntrustedJson(line);
    return isRecord(event) ? event : undefined;
  } catch {
    return undefined;
  }
}
