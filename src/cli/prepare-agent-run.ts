import { join } from "node:path";
import type { CreateAgentFromConfigOptions } from "../config/create-agent-from-config.js";
import { CtxkitError } from "../types/index.js";
import { approveWorkspaceMcpServers, bindAllowEntries } from "./approve-workspace-mcp-servers.js";
import type { CliFlags } from "./cli-options.js";
import { lineReader } from "./confirm-prompt.js";
import { hasTerminalInput, type CliIo } from "./cli-io.js";
import { createRequestLoggingFetch, requireWritableRequestLog } from "./log-requests-fetch.js";
import { resolveConfig, settingValues, type ResolvedConfig } from "./resolve-config.js";
import { requireWorkspaceDirectory } from "./require-workspace-directory.js";
import { requireWritableDataDirectory } from "./require-writable-data-directory.js";
import { checkBudgetPricing } from "../config/create-budget-from-config.js";

/** What `run` and `chat` build an agent from: the resolved configuration, and the library call's inputs. */
export interface AgentRunSetup {
  config: ResolvedConfig;
  /** `createAgentFromConfig`'s inputs: the workspace, the merged settings, the session, the request log. */
  inputs: Pick<CreateAgentFromConfigOptions, "workspace" | "settings" | "session" | "fetch" | "userConfigPath" | "home" | "env">;
  /** Notes for stderr (a workspace's setting left out, MCP servers not started, …). */
  notes: string[];
}

export interface AgentRunPlace {
  /**
   * The agent runs in this process (run, chat), so its data directory is made and checked here.
   * `ctxkit submit`'s runs on a worker's host, which keeps that directory: checking (and making) it
   * on the submitting host would refuse a read-only checkout and leave a `.ctxkit` folder in it.
   */
  runsHere: boolean;
}

/**
 * Resolves the flags `run` and `chat` share into one configuration (flags, variables, config files)
 * and the inputs of `createAgentFromConfig`, which builds the agent as a library user's would be.
 */
export async function prepareAgentRun(flags: CliFlags, io: CliIo, place: AgentRunPlace = { runsHere: true }): Promise<AgentRunSetup> {
  const config = resolveConfig(flags, io.env, { cwd: io.cwd });
  requireWorkspaceDirectory(config.workspace);
  // A cost limit without the model's prices is refused before anything is made (the data directory,
  // the request log, MCP approvals), and before submit queues a run its worker would refuse. A model
  // the provider picks itself (llama's from its file) is checked when the agent is built.
  if (config.budget !== undefined && config.model !== undefined) checkBudgetPricing(config.budget, config.model);
  if (config.logRequests) requireWritableRequestLog(config.logRequests);
  if (place.runsHere) await requireWritableDataDirectory(config);
  const notes: string[] = [...config.warnings, ...config.mcp.warnings.map((warning) => `mcp: ${warning.message}`)];
  await approveMcpServers(config, io, notes);
  if (flags.continue && flags.session) throw new CtxkitError("usage_invalid", "--continue and --session both choose a session; give one of them.");
  const logFile = config.logRequests;
  return {
    config,
    inputs: {
      workspace: config.workspace,
      settings: settingValues(config.settings),
      session: flags.continue ? { mode: "continue", repair: config.repair } : config.sessionId ? { mode: "resume", id: config.sessionId, repair: config.repair } : { mode: "new" },
      ...(logFile ? { fetch: createRequestLoggingFetch(logFile, config.apiKey ? [config.apiKey] : []) } : {}),
      userConfigPath: config.userConfigPath,
      ...(io.env.HOME ? { home: io.env.HOME } : {}),
      // The embeddings server's key variable is read where the CLI reads the others (its io, not process.env).
      env: io.env,
    },
    notes,
  };
}

/** A workspace's MCP servers only with the user's yes, and `allow` bound to the servers' identity (issue 24). */
async function approveMcpServers(config: ResolvedConfig, io: CliIo, notes: string[]): Promise<void> {
  // stdin is opened only when there is a server to ask about (a getter, and the reader on its first
  // line): opening process.stdin costs milliseconds that a run with no workspace server need not pay.
  const answers = lineReader(() => io.stdin);
  try {
    const prompt = { get interactive() { return hasTerminalInput(io); }, readLine: answers.next, output: io.stderr, userConfigPath: config.userConfigPath };
    const approved = await approveWorkspaceMcpServers(config.mcp, prompt);
    config.mcp = approved.mcp;
    // The library connects what the settings name: the servers the person just approved too.
    const origin = config.settings.mcpServers?.origin ?? [{ source: "workspace config" as const, file: join(config.workspace, "ctxkit.config.json") }];
    if (Object.keys(config.mcp.servers).length > 0) config.settings.mcpServers = { value: config.mcp.servers, origin };
    notes.push(...approved.notes);
  } finally {
    // Closes the reader only if a question was asked (only at a terminal).
    answers.close();
  }
  const bound = bindAllowEntries(config.allow, config.mcp.servers);
  config.allow = bound.allow;
  // The library's tool-approvals policy reads the settings: the entries bound to the servers' identity go there.
  if (config.settings.allow) config.settings.allow = { ...config.settings.allow, value: bound.allow };
  notes.push(...bound.notes);
}
