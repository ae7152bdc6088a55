import type { ConfigKey } from "../../config/config-schema.js";
import { budgetModes, cacheRetentions, cacheTtls, compressionPolicyNames, deferToolsModes, notesLocations, providerNames, reasoningEfforts, reasoningRoundTripModes, statusBarModes, vendorNames } from "../../config/config-values.js";

/** How a flag's or an environment variable's text becomes the config file's JSON value. */
export type SettingInput = "text" | "integer" | "number" | "money" | "switch" | "list" | "repeatable";

export type HelpGroup = "Model" | "Workspace and session" | "Tools and context" | "Budget";

/** A command-line option of the agent commands (run, chat, config), with its help. */
export interface FlagDeclaration {
  /** The long flag without `--`. */
  flag: string;
  short?: string;
  input: SettingInput;
  group?: HelpGroup;
  /** The help line's left side when it is not `--flag <value>` (e.g. `--no-sub-agents`). */
  usage?: string;
  /** The value placeholder: `<n>`. */
  value?: string;
  help?: string;
}

/** A setting: a config-file key with its flag, its environment variables and what a workspace may do with it. */
export interface SettingDeclaration extends Omit<FlagDeclaration, "flag"> {
  flag?: string;
  /** Environment variables, first wins (the provider's own ones are added by resolveConfig). */
  env?: readonly string[];
  /** For an enum: what one value is called in an error ("Unknown status bar mode 'x'"). */
  noun?: string;
  /** Allowed values, listed in errors and help (the schema holds the same list). */
  values?: readonly string[];
  /**
   * What a workspace's `ctxkit.config.json` (which comes with a cloned repository) may do:
   * - `userOnly`: nothing; the reason is shown, with where to put it instead;
   * - `inside`: name a path, only inside the workspace;
   * - `narrow`: only narrow what the user's own settings (or the default) give.
   */
  workspace?: { userOnly: { why: string; orPass?: string } } | "inside" | "narrow";
}

const keyRisk = "a cloned repository could send your API key to a server it chose";

/**
 * Every config key's flag, variables, help and workspace rule. Keyed by the schema's keys, so the
 * compiler refuses a key without an entry here or an entry without a key: the flags, the help
 * texts and the config file cannot drift apart.
 */
export const configSettings = {
  provider: {
    flag: "provider", input: "text", env: ["CTXKIT_PROVIDER"], group: "Model", values: providerNames, noun: "provider",
    value: `<${providerNames.join("|")}>`,
    help: "model API (default openai-compatible); openai-responses is OpenAI's Responses API (stateless, encrypted reasoning sent back); llama is the embedded llama.cpp engine (optional package node-llama-cpp)",
    workspace: { userOnly: { why: keyRisk } },
  },
  vendor: {
    flag: "vendor", input: "text", env: ["CTXKIT_VENDOR"], group: "Model", values: vendorNames, noun: "vendor",
    value: `<${vendorNames.join("|")}>`, help: "the server's dialect and default address (default openai)",
    workspace: { userOnly: { why: keyRisk } },
  },
  baseURL: {
    flag: "base-url", input: "text", env: ["CTXKIT_BASE_URL"], group: "Model", value: "<url>",
    help: "API base URL (e.g. http://127.0.0.1:11434/v1 for Ollama)", workspace: { userOnly: { why: keyRisk } },
  },
  model: { flag: "model", input: "text", env: ["CTXKIT_MODEL"], group: "Model", value: "<name>", help: "model name (required, except with --provider llama)" },
  modelPath: { flag: "model-path", input: "text", env: ["CTXKIT_MODEL_PATH"], group: "Model", value: "<file.gguf>", help: "llama: the GGUF model file" },
  apiKey: {
    flag: "api-key", input: "text", env: ["CTXKIT_API_KEY"], group: "Model", value: "<key>",
    help: "API key (default from CTXKIT_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY, …)", workspace: { userOnly: { why: keyRisk } },
  },
  temperature: { flag: "temperature", input: "number", group: "Model", value: "<t>", help: "sampling temperature (default: the server's)" },
  maxOutputTokens: { flag: "max-output-tokens", input: "integer", group: "Model", value: "<n>", help: "longest reply per call (default: the server's; 8192 for Anthropic)" },
  contextWindow: {
    flag: "context-window", input: "integer", env: ["CTXKIT_CONTEXT_WINDOW"], group: "Model", value: "<tokens>",
    help: "the model's context window (compression starts at 90% of it, 80% with --compression windowed, or sooner to leave --max-output-tokens for the answer; default 128000)",
  },
  requestTimeout: {
    flag: "request-timeout", input: "number", env: ["CTXKIT_REQUEST_TIMEOUT"], group: "Model", value: "<s>",
    help: "seconds to wait for a response to start, per attempt (default 60; 0 = off)",
  },
  idleTimeout: { flag: "idle-timeout", input: "number", env: ["CTXKIT_IDLE_TIMEOUT"], group: "Model", value: "<s>", help: "seconds of silence allowed mid-stream (default 60; 0 = off)" },
  cacheTtl: {
    flag: "cache-ttl", input: "text", env: ["CTXKIT_CACHE_TTL"], group: "Model", values: cacheTtls, noun: "cache lifetime (Anthropic's two are 5m and 1h)", value: `<${cacheTtls.join("|")}>`,
    help: "Anthropic prompt-cache lifetime (default 5m; 1h writes cost 2× input)",
  },
  cacheKey: {
    flag: "cache-key", input: "text", env: ["CTXKIT_CACHE_KEY"], group: "Model", value: "<key>",
    help: "prompt-cache routing key: OpenAI's prompt_cache_key, x-session-affinity for other OpenAI-compatible servers (default: the session id)",
  },
  cacheRetention: {
    flag: "cache-retention", input: "text", env: ["CTXKIT_CACHE_RETENTION"], group: "Model", values: cacheRetentions, noun: "cache retention (OpenAI's two are in-memory and 24h)",
    value: `<${cacheRetentions.join("|")}>`,
    help: "openai-responses: prompt_cache_retention, how long OpenAI keeps the prompt cache (default: in-memory, 5 to 60 minutes)",
  },
  reasoningEffort: {
    flag: "reasoning-effort", input: "text", env: ["CTXKIT_REASONING_EFFORT"], group: "Model", values: reasoningEfforts, noun: "reasoning effort", value: `<${reasoningEfforts.join("|")}>`,
    help: "openai-responses: reasoning.effort (none to xhigh); anthropic: output_config.effort (low to max) (default: the model's); a change between calls starts a new prompt cache",
  },
  compactThreshold: {
    flag: "compact-threshold", input: "integer", group: "Model", value: "<tokens>",
    help: "openai-responses, anthropic: let the server compact the context past this many input tokens (Responses context_management compaction; Anthropic compact_20260112, at least 50000; default off)",
  },
  reasoningRoundTrip: {
    flag: "reasoning-round-trip", input: "text", env: ["CTXKIT_REASONING_ROUND_TRIP"], group: "Model", values: reasoningRoundTripModes, noun: "reasoning round-trip",
    value: `<${reasoningRoundTripModes.join("|")}>`,
    help: "OpenAI-compatible: which assistant turns carry their reasoning_content back (default: the vendor's rule; llama.cpp sends it on tool-call turns of gpt-oss models only)",
  },
  dataDir: {
    flag: "data-dir", input: "text", env: ["CTXKIT_DATA_DIR"], group: "Workspace and session", value: "<dir>",
    help: "where sessions are stored (default <workspace>/.ctxkit)", workspace: "inside",
  },
  databaseUrl: {
    flag: "database-url", input: "text", env: ["CTXKIT_DATABASE_URL"], group: "Workspace and session", value: "<postgres://…>",
    help: "keep sessions (and durable runs) in PostgreSQL instead of JSONL files in the data directory",
    workspace: { userOnly: { why: "a cloned repository could send your transcripts to a database it chose" } },
  },
  system: { flag: "system", input: "text", group: "Workspace and session", value: "<text|@file>", help: "the system prompt (default: ctxkit's coding-agent prompt)" },
  projectInstructions: {
    flag: "project-instructions", input: "switch", group: "Workspace and session", usage: "--no-project-instructions",
    help: "do not read AGENTS.md / CLAUDE.md from the workspace and its parents",
  },
  logRequests: {
    flag: "log-requests", input: "text", group: "Workspace and session", value: "<file>",
    help: "append every request body as JSON lines (API keys masked), for debugging", workspace: "inside",
  },
  tools: {
    flag: "tools", input: "list", env: ["CTXKIT_TOOLS"], group: "Tools and context", value: "<list>", workspace: "narrow",
    help: "comma-separated built-in tools; 'default' = all but bash, 'all' adds bash (web_fetch reads web pages: http(s) only, no private network addresses). A workspace's config may only narrow your own list",
  },
  allow: {
    input: "list", help: "tools whose calls never ask for confirmation",
    workspace: { userOnly: { why: "a cloned repository could approve its own commands", orPass: "--yes" } },
  },
  yes: {
    flag: "yes", short: "y", input: "switch", group: "Tools and context",
    help: "approve every confirmation (writes, bash), except calls whose arguments carry material that came only from external content (always asked; refused without a terminal)",
    workspace: { userOnly: { why: "a cloned repository could approve its own commands" } },
  },
  allowLoopbackFetch: {
    flag: "allow-loopback-fetch", input: "switch", env: ["CTXKIT_ALLOW_LOOPBACK_FETCH"], group: "Tools and context",
    help: "let web_fetch read pages on this machine (localhost, 127.0.0.1); off by default",
    workspace: { userOnly: { why: "a cloned repository could point the model at services on your machine" } },
  },
  trustWorkspace: {
    flag: "trust-workspace", input: "switch", group: "Tools and context",
    help: "the workspace's files are yours (for automation; on a terminal ctxkit asks once per workspace): its files are shown as they are and do not make the conversation untrusted (default: tagged as untrusted data, like web pages; its AGENTS.md / CLAUDE.md, own skills and approved MCP servers make the conversation untrusted from the first call)",
    workspace: { userOnly: { why: "a cloned repository could vouch for itself" } },
  },
  trustedWorkspaces: {
    input: "text",
    help: 'your answers to "trust this workspace?", by absolute path ({"/path": true | false}); ctxkit asks on a terminal the first time and records the answer here',
    workspace: { userOnly: { why: "a cloned repository could vouch for itself" } },
  },
  allowUnderTaint: {
    input: "list",
    help: "tools that run without a question while untrusted content (a page, an MCP result, an untrusted workspace's files) is in the conversation; calls whose arguments match that content are still asked about",
    workspace: { userOnly: { why: "a cloned repository could let a page it points to run commands" } },
  },
  externalTools: { input: "list", help: "tools whose results count as external content whatever they declare (added to the user's list)" },
  untrustedContentNotice: {
    input: "switch", help: "the system-prompt section saying external content is data (default true)",
    workspace: { userOnly: { why: "a cloned repository could remove the notice that its files are data" } },
  },
  maxIterations: {
    flag: "max-iterations", input: "integer", env: ["CTXKIT_MAX_ITERATIONS"], group: "Tools and context", value: "<n>",
    help: "model calls per task before stopping (default 50)",
  },
  skills: {
    flag: "skills", input: "repeatable", group: "Tools and context", value: "<dir>", workspace: "inside",
    help: "a folder of skills (<dir>/<name>/SKILL.md, relative to the workspace like --data-dir); repeatable, searched before <workspace>/.ctxkit/skills, .agents/skills, .claude/skills, ~/.config/ctxkit/skills",
  },
  mcpServers: {
    flag: "mcp-config", input: "repeatable", group: "Tools and context", value: "<file>",
    help: 'MCP servers to connect, {"mcpServers": {"name": {"command", "args", "env"} | {"url", "headers"}}} as Claude Code and Cursor write it; repeatable, added to "mcpServers" of the config files (a workspace\'s servers start only once you approve them, at a terminal). Their tools are named mcp__<server>__<tool>; calls ask first unless the server marks them read-only',
  },
  mcpApprovals: {
    input: "list",
    help: "the MCP servers of workspace configs you approved, each with its workspace, name and whole definition (written by ctxkit when you answer yes; a changed definition asks again)",
    workspace: { userOnly: { why: "a cloned repository could approve its own servers" } },
  },
  deferTools: {
    flag: "defer-tools", input: "text", group: "Tools and context", values: deferToolsModes, noun: "--defer-tools mode", value: `<${deferToolsModes.join("|")}>`,
    help: "keep tools out of the tool list the model is sent and let it find them with tool_search (called through call_tool): auto when their definitions would take over 10% of the context window, all always, off (default) never",
  },
  toolSearchEmbeddingsUrl: {
    flag: "tool-search-embeddings-url", input: "text", env: ["CTXKIT_TOOL_SEARCH_EMBEDDINGS_URL"], group: "Tools and context", value: "<url>",
    help: "semantic tool_search (opt-in): an OpenAI-compatible /v1/embeddings server (e.g. http://127.0.0.1:8080/v1 for llama-server --embeddings, http://127.0.0.1:11434/v1 for Ollama) whose ranking is fused with the words'; the tools' texts and every search's query are sent to it; when it fails, the search uses words alone and warns; it takes effect only when tools are searched for (--defer-tools auto|all, or MCP servers) and the provider does not search natively",
    workspace: { userOnly: { why: "a cloned repository could send your searches (and a key) to a server it chose" } },
  },
  toolSearchEmbeddingsModel: {
    flag: "tool-search-embeddings-model", input: "text", env: ["CTXKIT_TOOL_SEARCH_EMBEDDINGS_MODEL"], group: "Tools and context", value: "<name>",
    help: "the embedding model that server runs (e.g. text-embedding-3-small, nomic-embed-text)",
    // It means nothing without the user's server, and alone it would stop every run asking for one.
    workspace: { userOnly: { why: "it goes with the embeddings server, which only your config names" } },
  },
  toolSearchEmbeddingsApiKeyEnv: {
    flag: "tool-search-embeddings-api-key-env", input: "text", group: "Tools and context", value: "<VAR>",
    help: "the environment variable holding that server's API key (e.g. OPENAI_API_KEY; default: no key)",
    workspace: { userOnly: { why: keyRisk } },
  },
  toolSearchEmbeddingModelPath: {
    flag: "tool-search-embedding-model-path", input: "text", env: ["CTXKIT_TOOL_SEARCH_EMBEDDING_MODEL_PATH"], group: "Tools and context", value: "<file.gguf>",
    help: "semantic tool_search with a local GGUF embedding model instead, run through node-llama-cpp (optional package)",
    workspace: { userOnly: { why: "a cloned repository could make ctxkit load a model file it chose" } },
  },
  compression: {
    flag: "compression", input: "text", env: ["CTXKIT_COMPRESSION"], group: "Tools and context", values: compressionPolicyNames, noun: "compression policy", value: "<policy>",
    help: `${compressionPolicyNames.at(-1)} (default: layered), ${compressionPolicyNames.slice(0, -1).join(", ")}`,
  },
  statusBar: {
    flag: "status-bar", input: "text", env: ["CTXKIT_STATUS_BAR"], group: "Tools and context", values: statusBarModes, noun: "status bar mode", value: `<${statusBarModes.join("|")}>`,
    help: "how the <agent_status> message (goal, TODO list, call counts, time) is sent: replaced on every call, or appended and kept; auto (default) picks the one that costs less with the model's cache pricing",
  },
  statusBarTimestamps: { flag: "timestamps", input: "switch", group: "Tools and context", usage: "--no-timestamps", help: "a status bar without times" },
  statusBarCounter: { flag: "counter", input: "switch", group: "Tools and context", usage: "--no-counter", help: "a status bar without call counts" },
  statusBarTodo: { flag: "todo", input: "switch", group: "Tools and context", usage: "--no-todo", help: "a status bar without the TODO list" },
  statusBarErrors: { flag: "errors", input: "switch", group: "Tools and context", usage: "--no-errors", help: "a status bar without detailed errors" },
  statusBarState: { flag: "state", input: "switch", group: "Tools and context", usage: "--no-state", help: "a status bar without the system state" },
  notes: {
    flag: "notes", input: "text", group: "Tools and context", values: notesLocations, noun: "notes location", value: `<${notesLocations.join("|")}>`, workspace: "narrow",
    help: "notes the agent keeps outside the context (notes_read, notes_write): in the session's data folder (default), in NOTES.md of the workspace, or none; they survive compaction and the status shows their size",
  },
  subAgents: {
    flag: "sub-agents", input: "switch", group: "Tools and context", usage: "--no-sub-agents", workspace: "narrow",
    help: "no task tool: the agent cannot hand searches to the read-only explore sub-agent or fork a copy of itself (both on by default)",
  },
  color: { flag: "color", input: "switch", group: "Tools and context", usage: "--no-color", help: "plain output (colour also follows NO_COLOR and FORCE_COLOR)" },
  budgetTokens: { flag: "budget-tokens", input: "integer", group: "Budget", value: "<n>", workspace: "narrow", help: "most tokens (prompt, cached included, plus output) the session may use" },
  budgetCost: { flag: "budget-cost", input: "money", group: "Budget", value: "<usd>", workspace: "narrow", help: "most US dollars, priced with the pricing catalog" },
  budgetMode: {
    flag: "budget-mode", input: "text", group: "Budget", values: budgetModes, noun: "budget mode", value: `<${budgetModes.join("|")}>`, workspace: "narrow",
    help: "at the limit: stop the task before the call (hard, default), warn and go on (soft), or ask (approval; without a terminal the answer is no). Calls slow down from 80% of a limit; --max-output-tokens sets how much output each call reserves (default: the provider's own limit, 8192 for anthropic, else 4096)",
  },
} as const satisfies Record<ConfigKey, SettingDeclaration>;

/** Options that choose what one invocation works on, never read from a config file. */
export const invocationFlags = [
  { flag: "workspace", input: "text", group: "Workspace and session", value: "<dir>", help: "existing directory the tools work in (default: current directory, or CTXKIT_WORKSPACE)" },
  { flag: "session", input: "text", group: "Workspace and session", value: "<id>", help: "resume a stored session" },
  { flag: "continue", short: "c", input: "switch", group: "Workspace and session", usage: "--continue, -c", help: "resume the latest session of the workspace" },
  {
    flag: "repair", input: "switch", group: "Workspace and session",
    help: "resume a session with duplicated, stray or out-of-order lines: rewritten without the duplicates, in order (the original is kept beside it as <file>.before-repair)",
  },
  // Listed in each command's own help (run's Output section), or not at all.
  { flag: "json", input: "switch" },
  // How the run decided what it did (the status bar's cost model): for a person debugging a run, so off by default.
  { flag: "verbose", input: "switch" },
  { flag: "help", short: "h", input: "switch" },
] as const satisfies readonly FlagDeclaration[];

/** The settings as a list, in declaration order. */
export const settingList = Object.entries(configSettings) as Array<[ConfigKey, SettingDeclaration]>;
