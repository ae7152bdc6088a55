import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ImportProblem, ImportedTranscript } from "../../inspect/imported-transcript.js";
import { importTranscriptFiles, loadOpenAIToolsFile } from "../../inspect/index.js";
import type { ToolDefinition } from "../../types/index.js";
import type { Dialogue } from "./context-modes.js";

/** The files of the recorded τ-bench airline runs (see ../shared/corpus/README.md). */
export interface TauBenchFiles {
  trajectories: string;
  tools: string;
  policy: string;
}

export type TauBenchLocation = { found: true; files: TauBenchFiles } | { found: false; missing: string[] };

/** Finds the τ-bench files under a corpus directory (the one holding `tau-bench/`, or `tau-bench/` itself). */
export function locateTauBenchCorpus(corpusDirectory: string): TauBenchLocation {
  const root = existsSync(join(corpusDirectory, "tau-bench")) ? join(corpusDirectory, "tau-bench") : corpusDirectory;
  const files: TauBenchFiles = {
    trajectories: join(root, "trajectories", "gpt-4o-airline.json"),
    tools: join(root, "airline", "tools.json"),
    policy: join(root, "airline", "wiki.md"),
  };
  const missing = Object.values(files).filter((path) => !existsSync(path));
  return missing.length === 0 ? { found: true, files } : { found: false, missing };
}

export interface LoadedDialogues {
  dialogues: Dialogue[];
  /** Dialogues in the file (before `limit`). */
  available: number;
  /** Ids of dialogues whose own system message is not the policy file (the policy is used anyway). */
  systemMismatches: string[];
  problems: ImportProblem[];
}

/**
 * Reads the recorded dialogues with the airline tools and the policy as the system prompt — what
 * the benchmark's agent was given. Records that do not import are returned as problems.
 */
export async function loadTauBenchDialogues(files: TauBenchFiles, options: { limit?: number } = {}): Promise<LoadedDialogues> {
  const tools = loadOpenAIToolsFile(files.tools);
  const policy = await readFile(files.policy, "utf8");
  const { transcripts, problems } = await importTranscriptFiles([files.trajectories], { format: "tau-bench", tools });
  const usable = transcripts.filter((transcript) => transcript.calls.length > 0);
  const chosen = usable.slice(0, options.limit ?? usable.length);
  return {
    dialogues: chosen.map((transcript) => toDialogue(transcript, policy, tools)),
    available: usable.length,
    systemMismatches: chosen.filter((transcript) => transcript.calls[0]!.request.system.staticText !== policy).map((transcript) => transcript.id),
    problems,
  };
}

/** Every message after the system prompt up to the last model reply: what the last call saw, and its answer. */
function toDialogue(transcript: ImportedTranscript, policy: string, tools: ToolDefinition[]): Dialogue {
  const last = transcript.calls.at(-1)!;
  const messages = last.response === undefined ? last.request.messages : [...last.request.messages, last.response];
  return { id: transcript.id, system: policy, tools, messages };
}
