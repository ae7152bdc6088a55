import { lstat, readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { ImportProblem } from "../imported-transcript.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";
import { isRecord, type JsonObject } from "./json-guards.js";

/** How OpenHands V1 (software-agent-sdk, CLI 1.x) names each persisted event: `events/event-00000-<uuid>.json`. */
const eventFileName = /^event-\d+-[^/\\]*\.json$/;
/** A conversation of more events than this is read up to here, with a problem saying so. */
export const maxOpenHandsEventFiles = 100_000;
/** How much of an events/ folder's first event is read to tell an OpenHands event (`{kind, …}`) from other JSON. */
const maxPeekBytes = 4 * 1024 * 1024;

/**
 * Tells whether `path` is an OpenHands V1 conversation as the SDK persists it
 * (`~/.openhands/conversations/<id>/` with `base_state.json` and `events/event-*.json`), or its
 * `events/` folder. Returns the conversation folder, or undefined for anything else (a file, a
 * folder of other transcripts, a missing path). A folder counts only with the SDK's own marks
 * (base_state.json beside events/, or events/ whose first event is an OpenHands event), so a folder
 * of other transcripts that merely has an events/ subfolder is still searched file by file.
 */
export async function findOpenHandsConversationFolder(path: string): Promise<string | undefined> {
  if (!(await isDirectory(path))) return undefined;
  if ((await isRegularFile(join(path, "base_state.json"))) && (await firstEventFile(join(path, "events"))) !== undefined) return path;
  if (basename(path) !== "events") return undefined;
  const first = await firstEventFile(path);
  if (first === undefined) return undefined;
  return (await isRegularFile(join(dirname(path), "base_state.json"))) || (await isOpenHandsEvent(join(path, first))) ? dirname(path) : undefined;
}

/**
 * Reads a V1 conversation folder as one event list: `base_state.json` first (its `stats` hold each
 * call's usage, which the events do not), then the events in the order of their numbers. An event
 * file that is not a JSON object, or not a regular file (a link is not followed out of the folder),
 * is a problem; the rest is still read.
 */
export async function readOpenHandsConversationFolder(folder: string): Promise<{ events: JsonObject[]; problems: ImportProblem[] }> {
  const events: JsonObject[] = [];
  const problems: ImportProblem[] = [];
  const state = join(folder, "base_state.json");
  if (await isRegularFile(state)) {
    const stateRecord = await readJsonObject(state, problems);
    if (stateRecord !== undefined) events.push(stateRecord);
  }
  const eventsFolder = join(folder, "events");
  const names = await eventFileNames(eventsFolder);
  if (names.length > maxOpenHandsEventFiles) {
    problems.push({ file: eventsFolder, reason: `${names.length} event files; only the first ${maxOpenHandsEventFiles} were read` });
  }
  for (const name of names.slice(0, maxOpenHandsEventFiles)) {
    const file = join(eventsFolder, name);
    if (!(await isRegularFile(file))) {
      problems.push({ file, reason: "not a regular file (a link or a folder): not read" });
      continue;
    }
    const event = await readJsonObject(file, problems);
    if (event !== undefined) events.push(event);
  }
  return { events, problems };
}

async function readJsonObject(file: string, problems: ImportProblem[]): Promise<JsonObject | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    problems.push({ file, reason: `cannot read the file (${(error as Error).message})` });
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

/** The event files of a folder in the order of their numbers: past event-99999 the number is longer, so not by name. */
async function eventFileNames(folder: string): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((name) => eventFileName.test(name)).sort((a, b) => eventNumber(a) - eventNumber(b) || a.localeCompare(b));
}

async function firstEventFile(folder: string): Promise<string | undefined> {
  return (await eventFileNames(folder))[0];
}

/** Whether the file (up to `maxPeekBytes`; a larger one is not looked into) is one OpenHands V1 event: a JSON object with a string `kind`. */
async function isOpenHandsEvent(file: string): Promise<boolean> {
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.size > maxPeekBytes) return false;
  try {
    const value: unknown = parseUntrustedJson(await readFile(file, "utf8"));
    return isRecord(value) && typeof value.kind === "string";
  } catch {
    return false;
  }
}

function eventNumber(name: string): number {
  return Number(/^event-(\d+)/.exec(name)?.[1] ?? 0);
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isDirectory(), () => false);
}

/** A file, not a link: what a conversation folder holds is read from that folder only. */
async function isRegularFile(path: string): Promise<boolean> {
  return lstat(path).then((info) => info.isFile(), () => false);
}
