import { ConfigError, type Tool } from "../types/index.js";
import type { SubAgentDefinition } from "./sub-agent-definition.js";

/** The tools `explore` may use: they only look. */
export const exploreToolNames = ["glob", "grep", "list_dir", "read_file"] as const;

export const exploreSystemPrompt = `You are explore, a read-only search sub-agent. Another agent gave you one self-contained question about the workspace;
you cannot see its conversation and it cannot see your searches. Search with grep and glob, read only the parts of files you need,
and stop as soon as you can answer. Answer in a few lines: the exact paths, symbols and line numbers that answer the question,
one line each on what they do, and anything you could not find. Never paste whole files.`;

export interface ExploreAgentOptions {
  /** The tools to pick from (e.g. the workspace tools); only the read-only ones are kept. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools: readonly Tool<any>[];
  maxAnswerTokens?: number;
  maxIterations?: number;
}

/** `explore`: its own system prompt and only the read-only workspace tools. */
export function createExploreAgent(options: ExploreAgentOptions): SubAgentDefinition {
  if (!Array.isArray(options?.tools)) {
    throw new ConfigError("option_invalid", "createExploreAgent needs `tools`: the workspace tools it may keep the read-only ones of, e.g. createExploreAgent({ tools: createWorkspaceTools({ workspace }) }).");
  }
  const names: readonly string[] = exploreToolNames;
  return {
    name: "explore",
    description: "read-only search of the workspace (grep, glob, list_dir, read_file); reports where things are.",
    system: exploreSystemPrompt,
    tools: options.tools.filter((tool) => names.includes(tool.name)),
    ...(options.maxAnswerTokens ? { maxAnswerTokens: options.maxAnswerTokens } : {}),
    ...(options.maxIterations ? { maxIterations: options.maxIterations } : {}),
  };
}

/** `fork`: a copy of the calling agent from this point (same prompt, tools and conversation, so the prompt cache serves it). */
export function createForkAgent(options: { maxAnswerTokens?: number; maxIterations?: number } = {}): SubAgentDefinition {
  return {
    name: "fork",
    description: "a copy of you from this point of the conversation (it knows what you know); does one side task.",
    fork: true,
    ...(options.maxAnswerTokens ? { maxAnswerTokens: options.maxAnswerTokens } : {}),
    ...(options.maxIterations ? { maxIterations: options.maxIterations } : {}),
  };
}
