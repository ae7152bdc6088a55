import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { ImportProblem } from "../imported-transcript.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";
import { isRecord, type JsonObject } from "./json-guards.js";

/** How OpenHands V1 (software-agent-sdk, CLI 1.x) names each persisted event: `events/event-00000-<uuid>.json`. */
const eventFileName = /^event-\d+-[^/\\]*\.json$/;
/** A conversation of more events than this is read up to here, with a problem saying so. */
export const maxOpenHandsEventFiles = 100_000;

/**
 * Tells whether `path` is an OpenHands V1 conversation as the SDK persists it
 * (`~/.openhands/conversations/<id>/` with `base_state.json` and `events/event-*.json`), or its
 * `events/` folder. Returns the conversation folder, or undefined for anything else (a file, a
 * folder of other transcripts, a missing path).
 */
export async function findOpenHandsConversationFolder(path: string): Promise<string | undefined> {
  if (!(await isDirectory(path))) return undefined;
  if (await holdsEventFiles(join(path, "events"))) return path;
  if (basename(path) === "events" && (await holdsEventFiles(path))) return dirname(path);
  return undefined;
}

/**
 * Reads a V1 conversation folder as one event list: `base_state.json` first (its `stats` hold each
 * call's usage, which the events do not), then the events in the order of their numbers. An event
 * file that is not a JSON object is a problem; the rest is still read.
 */
export async function readOpenHandsConversationFolder(folder: string): Promise<{ events: JsonObject[]; problems: ImportProblem[] }> {
  const events: JsonObject[] = [];
  const problems: ImportProblem[] = [];
  const state = join(folder, "base_state.json");
  const stateRecord = await readJsonObject(state, problems, true);
  if (stateRecord !== undefined) events.push(stateRecord);
  const eventsFolder = join(folder, "events");
  // Numbered from event-00000; past 99,999 the number is longer, so sort by number, not by name.
  const names = (await readdir(eventsFolder)).filter((name) => eventFileName.test(name)).sort((a, b) => eventNumber(a) - eventNumber(b) || a.localeCompare(b));
  if (names.length > maxOpenHandsEventFiles) {
    problems.push({ file: eventsFolder, reason: `${names.length} event files; only the first ${maxOpenHandsEventFiles} were read` });
  }
  for (const name of names.slice(0, maxOpenHandsEventFiles)) {
    const event = await readJsonObject(join(eventsFolder, name), problems, false);
    if (event !== undefined) events.push(event);
  }
  return { events, problems };
}

async function readJsonObject(file: string, problems: ImportProblem[], optional: boolean): Promise<JsonObject | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if (!optional) problems.push({ file, reason: `cannot read the file (${(error as Error).message})` });
    return undefined;
  }
  try {
    const value: unknown = parseUntrustedJson(text);
    if (isRecord(value)) return value;
    problems.push({ file, reason: "expected a JSON object (one OpenHands event, or the conversation's base_state)" });
  } catch (error) {
    problems.push({ file, reason: `not valid JSON (${(error as Error).message})` });
  }
  return undefined;
}

function eventNumber(name: string): number {
  return Number(/^event-(\d+)/.exec(name)?.[1] ?? 0);
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isDirectory(), () => false);
}

async function holdsEventFiles(folder: string): Promise<boolean> {
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.some((name) => eventFileName.test(name));
}
