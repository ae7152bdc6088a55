import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { CtxkitError, TranscriptError } from "../../types/index.js";
import { sectionsOf } from "./split-text-category.js";
import type { SkippedCategory, TextCategory } from "./text-category.js";

export interface LoadTextCategoriesOptions {
  /** The folder holding tau-bench/ and swe-gemini/ (see ../shared/corpus/README.md). */
  corpus: string;
  /** The folder holding the Chinese chapters `000_*.txt`. */
  seeds: string;
  /** swe-gemini runs to read, evenly spaced in name order (default: all). */
  limit?: number;
}

export type LoadedTextCategories =
  | { found: true; categories: TextCategory[]; skipped: SkippedCategory[] }
  | { found: false; corpus: string };

/**
 * Reads the calibration text types of the estimator from the corpus, one category per type. A
 * category whose files are missing is skipped; when none of the corpus is there, nothing is read.
 */
export async function loadTextCategories(options: LoadTextCategoriesOptions): Promise<LoadedTextCategories> {
  const tau = join(options.corpus, "tau-bench");
  const trajectories = join(tau, "trajectories", "gpt-4o-airline.json");
  const policies = [join(tau, "airline", "wiki.md"), join(tau, "retail", "wiki.md")];
  const tools = [join(tau, "airline", "tools.json"), join(tau, "retail", "tools.json")];
  const swe = join(options.corpus, "swe-gemini");
  const chinese = existsSync(options.seeds) ? listFiles(options.seeds, (name) => /^000_.*\.txt$/.test(name)) : [];
  type Loader = { id: string; name: string; files: string[]; load: () => Promise<Omit<TextCategory, "id" | "name">> };
  const loaders: Loader[] = [
    { id: "tau-dialogues", name: "τ-bench dialogues", files: [trajectories], load: () => loadTauDialogues(trajectories) },
    { id: "tau-policies", name: "τ-bench policies", files: policies, load: () => loadPolicies(policies) },
    { id: "tool-schemas", name: "tool schemas", files: tools, load: () => loadToolSchemas(tools) },
    { id: "swe-gemini", name: "swe-gemini messages", files: [swe], load: () => loadSweGemini(swe, options.limit) },
    { id: "chinese", name: "Chinese text", files: chinese.length > 0 ? chinese : [join(options.seeds, "000_*.txt")], load: () => loadChinese(chinese) },
  ];
  const present = loaders.filter((loader) => loader.files.every((file) => existsSync(file)));
  // The seeds live outside the corpus: with no corpus at all the benchmark has nothing to compare.
  if (present.every((loader) => loader.id === "chinese")) return { found: false, corpus: options.corpus };
  const categories: TextCategory[] = [];
  for (const loader of present) categories.push({ id: loader.id, name: loader.name, ...(await loader.load()) });
  const skipped = loaders
    .filter((loader) => !present.includes(loader))
    .map((loader) => ({ id: loader.id, name: loader.name, missing: loader.files.filter((file) => !existsSync(file)) }));
  return { found: true, categories, skipped };
}

/** Every message content but the system prompt (it is airline/wiki.md, counted with the policies), and every tool call's arguments. */
async function loadTauDialogues(file: string): Promise<Omit<TextCategory, "id" | "name">> {
  const records = await readJson(file);
  if (!Array.isArray(records)) throw invalid(file, "expected an array of {task_id, trial, traj}");
  const texts: string[] = [];
  const groups: string[] = [];
  for (const record of records) {
    const traj = (record as { traj?: unknown }).traj;
    const group = `task ${String((record as { task_id?: unknown }).task_id)}`;
    const before = texts.length;
    if (!Array.isArray(traj)) throw invalid(file, "a record has no traj list");
    for (const message of traj as Array<{ role?: unknown; content?: unknown; tool_calls?: unknown }>) {
      if (message.role !== "system" && typeof message.content === "string" && message.content !== "") texts.push(message.content);
      for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as Array<{ function?: { arguments?: unknown } }>) : []) {
        if (typeof call.function?.arguments === "string") texts.push(call.function.arguments);
      }
    }
    for (let index = before; index < texts.length; index++) groups.push(group);
  }
  return { source: `${records.length} GPT-4o airline dialogues: user, assistant and tool message contents, tool-call arguments`, texts, groups };
}

async function loadPolicies(files: string[]): Promise<Omit<TextCategory, "id" | "name">> {
  return { source: "airline/wiki.md, retail/wiki.md (in sections of ≥ 2,000 characters)", ...(await loadSections(files)) };
}

/** Documents cut into sections at blank lines, each section its own group (so a document can be split). */
async function loadSections(files: string[]): Promise<Pick<TextCategory, "texts" | "groups">> {
  const texts: string[] = [];
  const groups: string[] = [];
  for (const file of files) {
    for (const [index, section] of sectionsOf(await readFile(file, "utf8")).entries()) {
      texts.push(section);
      groups.push(`${basename(file)} §${index}`);
    }
  }
  return { texts, groups };
}

/** One text per tool, compact JSON: what an OpenAI-style request carries, not the file's indentation. */
async function loadToolSchemas(files: string[]): Promise<Omit<TextCategory, "id" | "name">> {
  const texts: string[] = [];
  for (const file of files) {
    const tools = await readJson(file);
    if (!Array.isArray(tools)) throw invalid(file, "expected an array of tool schemas");
    texts.push(...tools.map((tool) => JSON.stringify(tool)));
  }
  return { source: `airline/tools.json, retail/tools.json: ${texts.length} tools as compact JSON`, texts, groups: texts.map((_, index) => `tool ${index}`) };
}

/** Every message content of the chosen runs (system, task, assistant turns, observations). */
async function loadSweGemini(directory: string, limit: number | undefined): Promise<Omit<TextCategory, "id" | "name">> {
  const files = listFiles(directory, (name) => name.endsWith(".traj.json"));
  const chosen = sampleEvenly(files, limit);
  const texts: string[] = [];
  const groups: string[] = [];
  for (const file of chosen) {
    const run = (await readJson(file)) as { messages?: unknown };
    if (!Array.isArray(run.messages)) throw invalid(file, "no messages list (expected mini-swe-agent-1 format)");
    for (const message of run.messages as Array<{ content?: unknown }>) {
      if (typeof message.content === "string" && message.content !== "") {
        texts.push(message.content);
        groups.push(basename(file));
      }
    }
  }
  const sampling = chosen.length === files.length ? "all" : "evenly spaced in name order (file ⌊i·n/limit⌋)";
  return { source: `${chosen.length} of ${files.length} runs (${sampling}): every message content`, texts, groups };
}

async function loadChinese(files: string[]): Promise<Omit<TextCategory, "id" | "name">> {
  return { source: `${files.map((file) => basename(file)).join(", ")} (in sections of ≥ 2,000 characters)`, ...(await loadSections(files)) };
}

/** `limit` items spread over the whole list, deterministic: item ⌊i·n/limit⌋ for i < limit. */
export function sampleEvenly<T>(items: readonly T[], limit: number | undefined): T[] {
  if (limit === undefined || limit >= items.length) return [...items];
  return Array.from({ length: limit }, (_, index) => items[Math.floor((index * items.length) / limit)]!);
}

function listFiles(directory: string, keep: (name: string) => boolean): string[] {
  return readdirSync(directory)
    .filter(keep)
    .sort()
    .map((name) => join(directory, name));
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as unknown;
  } catch (error) {
    throw invalid(file, error instanceof Error ? error.message : String(error));
  }
}

function invalid(file: string, reason: string): CtxkitError {
  return new TranscriptError(`${file}: ${reason}. The corpus files should be as ../shared/corpus/README.md describes them.`);
}
