import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Provider } from "../providers/provider.js";
import { loadForResume } from "../session/reorder-on-resume.js";
import { CtxkitError, type GenerationSettings, type SystemPrompt } from "../types/index.js";
import { approveWorkspaceMcpServers, bindAllowEntries } from "./approve-workspace-mcp-servers.js";
import type { CliFlags } from "./cli-options.js";
import { lineReader } from "./confirm-prompt.js";
import type { CliIo } from "./cli-io.js";
import { createProviderFromConfig, defaultSystemPrompt, sessionStoreFor } from "./create-agent-from-config.js";
import { createRequestLoggingFetch } from "./log-requests-fetch.js";
import { describeInstructionsChange, instructionsVersion, lastAnnouncedVersion, loadProjectInstructions, type ProjectInstructions } from "./project-instructions.js";
import { resolveConfig, type ResolvedConfig } from "./resolve-config.js";

/** What `run` and `chat` build an agent from, beyond the resolved configuration. */
export interface AgentRunSetup {
  config: ResolvedConfig;
  provider: Provider;
  system: string | SystemPrompt;
  settings: GenerationSettings;
  /** The project instruction files in the system prompt (empty with --no-project-instructions). */
  instructionFiles: string[];
  /** Notes for stderr (e.g. "no session to continue"). */
  notes: string[];
  /**
   * Call before each user message: when AGENTS.md / CLAUDE.md changed since the session started (or
   * since the last announcement), the text to put before the message; otherwise undefined.
   */
  takeInstructionsChange(): string | undefined;
}

/**
 * Resolves the flags `run` and `chat` share into an agent's inputs: an existing workspace, the
 * session to continue, the system prompt (with the project's instructions in its session part,
 * decided once when the session starts), sampling settings and the provider (logging requests on ask).
 */
export async function prepareAgentRun(flags: CliFlags, io: CliIo): Promise<AgentRunSetup> {
  const config = resolveConfig(flags, io.env, { cwd: io.cwd });
  requireDirectory(config.workspace);
  const notes: string[] = [...config.warnings];
  await approveMcpServers(config, io, notes);
  if (flags.continue && flags.session) throw new CtxkitError("usage_invalid", "--continue and --session both choose a session; give one of them.");
  if (flags.continue) {
    const latest = await latestSessionId(config);
    if (latest) config.sessionId = latest;
    else notes.push(`no session to continue in ${sessionStoreFor(config).directory}; starting a new one.`);
  }
  const useInstructions = config.projectInstructions;
  const readInstructions = (): ProjectInstructions => (useInstructions ? loadProjectInstructions(config.workspace) : { files: [], text: "" });
  const instructions = readInstructions();
  const given = config.system === undefined ? undefined : readSystemFlag(config.system, io.cwd);
  let system: string | SystemPrompt;
  // The version of the instructions the model last heard of: the system prompt's, or a later announcement's.
  let announced: string;
  if (config.sessionId !== undefined) {
    // A resumed session keeps the system prompt it was started with, byte for byte (the cache stays
    // valid); changed instructions are announced in the trajectory instead.
    // Records out of order are refused here already, naming --repair; with it they are put back in order now.
    const { loaded, reordered } = await loadForResume(sessionStoreFor(config), config.sessionId, config.repair);
    if (reordered) io.stderr.write(`${reordered.message}\n`);
    const stored = loaded.prefix.system;
    system = given ?? { ...stored };
    const userTexts = loaded.messages.flatMap((message) => (message.role === "user" ? [message.content] : []));
    announced = lastAnnouncedVersion(userTexts) ?? instructionsVersion(storedInstructions(stored.sessionText));
  } else {
    const base = given ?? defaultSystemPrompt;
    system = instructions.text === "" ? base : { staticText: base, sessionText: instructions.text };
    announced = instructionsVersion(instructions.text);
  }
  const settings: GenerationSettings = {
    ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
    ...(config.maxOutputTokens === undefined ? {} : { maxOutputTokens: config.maxOutputTokens }),
  };
  const logFile = config.logRequests;
  const provider = createProviderFromConfig(config, logFile ? { fetch: createRequestLoggingFetch(logFile, config.apiKey ? [config.apiKey] : []) } : {});
  return {
    config,
    provider,
    system,
    settings,
    instructionFiles: instructions.files,
    notes,
    takeInstructionsChange() {
      if (!useInstructions) return undefined;
      const current = readInstructions();
      const version = instructionsVersion(current.text);
      if (version === announced) return undefined;
      announced = version;
      return describeInstructionsChange(current);
    },
  };
}

/** A workspace's MCP servers only with the user's yes, and `allow` bound to the servers' identity (issue 24). */
async function approveMcpServers(config: ResolvedConfig, io: CliIo, notes: string[]): Promise<void> {
  const interactive = io.stdin.isTTY === true;
  const answers = lineReader(io.stdin);
  try {
    const approved = await approveWorkspaceMcpServers(config.mcp, { interactive, readLine: answers.next, output: io.stderr, userConfigPath: config.userConfigPath });
    config.mcp = approved.mcp;
    notes.push(...approved.notes);
  } finally {
    if (interactive) answers.close();
  }
  const bound = bindAllowEntries(config.allow, config.mcp.servers);
  config.allow = bound.allow;
  notes.push(...bound.notes);
}

function requireDirectory(workspace: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(workspace).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    throw new CtxkitError("option_invalid", `The workspace ${workspace} does not exist or is not a folder. Create it first, or pass --workspace <existing folder>.`);
  }
}

async function latestSessionId(config: ResolvedConfig): Promise<string | undefined> {
  const sessions = (await sessionStoreFor(config).list()).filter((session) => session.error === undefined);
  sessions.sort((left, right) => (left.updatedAt < right.updatedAt ? 1 : left.updatedAt > right.updatedAt ? -1 : left.id < right.id ? 1 : -1));
  return sessions[0]?.id;
}

/** `--system <text>` or `--system @file` (read relative to the current directory). */
function readSystemFlag(value: string, cwd: string): string {
  if (!value.startsWith("@")) return value;
  const path = resolve(cwd, value.slice(1));
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new CtxkitError("usage_invalid", `--system ${value}: cannot read ${path} (${error instanceof Error ? error.message : String(error)}).`);
  }
}

/**
 * The project instructions inside a stored session part of the system prompt, which may also hold
 * context policies' sections after them (the skills catalog): from its opening line to its last
 * `</instructions>` (policies escape their file text, so none can close that tag).
 */
function storedInstructions(sessionText = ""): string {
  if (!sessionText.startsWith("Project instructions (from")) return "";
  const end = sessionText.lastIndexOf("</instructions>");
  return end === -1 ? sessionText : sessionText.slice(0, end + "</instructions>".length);
}
