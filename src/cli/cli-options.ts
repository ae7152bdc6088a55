import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError } from "../types/index.js";
import { describeArgumentError } from "./describe-argument-error.js";

/** Options every command that talks to a model accepts. */
export const commonOptions = {
  provider: { type: "string" },
  vendor: { type: "string" },
  "base-url": { type: "string" },
  model: { type: "string" },
  // The llama provider (embedded engine): `--provider llama --model-path <file.gguf>`.
  "model-path": { type: "string" },
  "api-key": { type: "string" },
  workspace: { type: "string" },
  session: { type: "string" },
  "max-iterations": { type: "string" },
  "context-window": { type: "string" },
  // Provider time limits in seconds: `--request-timeout` (until the response starts), `--idle-timeout` (silence mid-stream).
  "request-timeout": { type: "string" },
  "idle-timeout": { type: "string" },
  // Prompt caching: `--cache-ttl 5m|1h` (Anthropic's cache lifetime), `--cache-key <key>` (OpenAI's prompt_cache_key; default the session id).
  "cache-ttl": { type: "string" },
  "cache-key": { type: "string" },
  // Context compression: `--compression <policy>` (none, individual, combined, context-aware, context-aware-citations, windowed, ctxkit).
  compression: { type: "string" },
  tools: { type: "string" },
  yes: { type: "boolean", short: "y" },
  // Resume a session with duplicated or stray lines, continuing with them left out (the file is unchanged).
  repair: { type: "boolean" },
  "data-dir": { type: "string" },
  json: { type: "boolean" },
  color: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  // The status bar: `--status-bar <replace|append|auto|off>` and `--no-<part>` to switch a part off.
  "status-bar": { type: "string" },
  timestamps: { type: "boolean" },
  // `--no-sub-agents`: no `task` tool (sub-agents explore and fork are on by default).
  "sub-agents": { type: "boolean" },
  counter: { type: "boolean" },
  todo: { type: "boolean" },
  errors: { type: "boolean" },
  state: { type: "boolean" },
  // Debugging and steering a run: `--system <text|@file>`, sampling, the request log, and resumption.
  system: { type: "string" },
  temperature: { type: "string" },
  "max-output-tokens": { type: "string" },
  "log-requests": { type: "string" },
  continue: { type: "boolean", short: "c" },
  "project-instructions": { type: "boolean" },
  // Agent Skills: `--skills <dir>` (repeatable), searched before the workspace's and home's skill folders.
  skills: { type: "string", multiple: true },
  // MCP servers: `--mcp-config <file>` (repeatable), {"mcpServers": {...}} as Claude Code and Cursor write it.
  "mcp-config": { type: "string", multiple: true },
  // Budgets: `--budget-tokens <n>`, `--budget-cost <usd>`, `--budget-mode hard|soft|approval` (the session's limits).
  "budget-tokens": { type: "string" },
  "budget-cost": { type: "string" },
  "budget-mode": { type: "string" },
  // Notes outside the context: `--notes session|workspace|off`.
  notes: { type: "string" },
  // web_fetch may read pages on this machine (127.0.0.1, localhost): off by default.
  "allow-loopback-fetch": { type: "boolean" },
  // Deferred tools: `--defer-tools <auto|all|off>` keeps tools out of `tools`, found with tool_search.
  "defer-tools": { type: "string" },
  // Untrusted content: workspace files are tagged as data unless the user vouches for the workspace.
  "trust-workspace": { type: "boolean" },
} satisfies NonNullable<ParseArgsConfig["options"]>;

export type CliFlags = {
  provider?: string;
  vendor?: string;
  "base-url"?: string;
  model?: string;
  "model-path"?: string;
  "api-key"?: string;
  workspace?: string;
  session?: string;
  "max-iterations"?: string;
  "context-window"?: string;
  "request-timeout"?: string;
  "cache-ttl"?: string;
  "cache-key"?: string;
  "idle-timeout"?: string;
  compression?: string;
  tools?: string;
  yes?: boolean;
  repair?: boolean;
  "data-dir"?: string;
  json?: boolean;
  color?: boolean;
  help?: boolean;
  "status-bar"?: string;
  timestamps?: boolean;
  "sub-agents"?: boolean;
  counter?: boolean;
  todo?: boolean;
  errors?: boolean;
  state?: boolean;
  system?: string;
  temperature?: string;
  "max-output-tokens"?: string;
  "log-requests"?: string;
  continue?: boolean;
  "project-instructions"?: boolean;
  skills?: string[];
  "mcp-config"?: string[];
  "budget-tokens"?: string;
  "budget-cost"?: string;
  "budget-mode"?: string;
  notes?: string;
  "allow-loopback-fetch"?: boolean;
  "defer-tools"?: string;
  "trust-workspace"?: boolean;
};

export interface ParsedCommandLine {
  flags: CliFlags;
  positionals: string[];
}

/**
 * Parses a command's arguments. An unknown flag or a missing value is a `usage_invalid` error (exit
 * code 2) that names the closest known flag; the CLI prints the command's help after it.
 */
export function parseCommandLine(args: string[], extra: NonNullable<ParseArgsConfig["options"]> = {}): ParsedCommandLine & { extra: Record<string, unknown> } {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...commonOptions, ...extra },
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
    return { flags: values as CliFlags, positionals, extra: values as Record<string, unknown> };
  } catch (error) {
    const options = { ...commonOptions, ...extra };
    throw new ConfigError("usage_invalid", describeArgumentError(error, Object.keys(options)));
  }
}

export function parsePositiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new ConfigError("usage_invalid", `${flag} must be a positive whole number, got '${value}'.`);
  }
  return parsed;
}
