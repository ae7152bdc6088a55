import { ConfigError, type Tool, type ToolDefinition } from "../types/index.js";
import { requireWholeNumberOption } from "../types/whole-number-option.js";
import { createLateToolSet, type LateToolSet } from "../tools/search/late-tool-set.js";
import { connectMcpServer, describeError, type McpListedTool, type McpServerConnection } from "./connect-mcp-server.js";
import type { McpServersConfig } from "./mcp-config.js";
import { convertMcpTool } from "./convert-mcp-tool.js";
import { createMcpTool, type McpConfirmation } from "./create-mcp-tool.js";
import { defaultMaxResultCharacters } from "./convert-mcp-result.js";
import { mcpToolName } from "./mcp-tool-name.js";
import type { McpWarning } from "./mcp-warning.js";

/** When the MCP tools are kept out of `tools` and found through tool search instead. */
export type McpDeferMode = "auto" | "always" | "never";

export interface ConnectMcpServersOptions {
  /** Milliseconds a server has to start and answer the handshake and tools/list (default 30 s). */
  startTimeoutMs?: number;
  /** Milliseconds one tool call may take (default 120 s); the call then ends as an error result. */
  callTimeoutMs?: number;
  /** Characters of one result the model sees (default 50,000). */
  maxResultCharacters?: number;
  /** Tools read from one server at most (default 500). */
  maxToolsPerServer?: number;
  /**
   * `auto` (default) marks every MCP tool `deferred` when together they pass `deferThreshold`, so a
   * large server does not fill every request; `always` / `never` decide without counting.
   */
  defer?: McpDeferMode;
  /** For `defer: "auto"`: more tools than `tools`, or definitions over `characters` (default 30 tools, 20,000 characters). */
  deferThreshold?: { tools?: number; characters?: number };
  /** Which calls ask for confirmation (default: all but tools the server marks read-only). */
  confirm?: McpConfirmation;
  /** Where stdio servers start. */
  cwd?: string;
}

/** Tools a server added or removed after the session started (`notifications/tools/list_changed`). */
export interface McpToolsChange {
  server: string;
  /** New tools, always `deferred` (the `tools` array is frozen); callable once discovered. */
  added: Tool[];
  /** Prefixed names of tools the server no longer lists; calls to them answer with an error result. */
  removed: string[];
  /** Set when the server is a workspace's (`trust: "untrusted"`): the added tools' descriptions are its own words, not the user's. */
  untrusted?: true;
}

export interface McpConnections {
  /** Every server's tools, sorted by name and frozen at start. */
  readonly tools: readonly Tool[];
  /** Servers that did not start and tools that were skipped, as data. */
  readonly warnings: readonly McpWarning[];
  /** The servers that answered, with their number of tools. */
  readonly servers: ReadonlyArray<{ name: string; tools: number }>;
  /**
   * The prefixed names of the tools of servers marked `trust: "untrusted"` (a workspace's): their
   * descriptions are in the context from the first call, so pass them to the runtime guard
   * (`createRuntimeGuardPolicy({ untrustedTools })`), which then treats the context as untrusted
   * (the CLI does so while the person has not trusted the workspace the servers come from).
   */
  readonly untrustedTools: readonly string[];
  /**
   * A tool by its prefixed name, also one a server added after the start (for a `call_tool` proxy);
   * a tool the server removed is still found and answers with an error result.
   */
  findTool(name: string): Tool | undefined;
  /**
   * The tools servers added and removed after the start, kept current: pass it to the agent
   * (`createAgent({ toolSearch: { lateTools } })`) so added tools can be called through `call_tool`.
   */
  readonly lateTools: LateToolSet;
  /** Subscribes to tool-list changes; returns the unsubscribe function. */
  onToolsChanged(listener: (change: McpToolsChange) => void): () => void;
  /** Ends every connection and child process (idempotent). */
  close(): Promise<void>;
}

const defaultDeferThreshold = { tools: 30, characters: 20_000 };

/**
 * Connects to every configured MCP server at once. A server that fails to start becomes a warning,
 * not an error: the session goes on without it. Child processes end on `close()` and, as a last
 * resort, when this process exits.
 */
export async function connectMcpServers(config: McpServersConfig, options: ConnectMcpServersOptions = {}): Promise<McpConnections> {
  checkConnectOptions(options);
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const warnings: McpWarning[] = [];
  const names = Object.keys(config).sort();
  const attempts = await Promise.all(
    names.map(async (name) => {
      try {
        const connection = await connectMcpServer(name, config[name]!, {
          startTimeoutMs,
          maxTools: options.maxToolsPerServer ?? 500,
          clientVersion: "0.1.0",
          ...(options.cwd ? { cwd: options.cwd } : {}),
        });
        try {
          return { connection, listed: await connection.listTools() };
        } catch (error) {
          await connection.close();
          warnings.push({ code: "tools_invalid", server: name, message: `MCP server '${name}': its tool list could not be read (${describeError(error)}); it is not used.` });
        }
      } catch (error) {
        warnings.push({ code: "server_failed", server: name, message: `MCP server '${name}' did not start: ${describeError(error)}` });
      }
      return undefined;
    }),
  );
  const live = attempts.filter((attempt): attempt is { connection: McpServerConnection; listed: McpListedTool[] } => attempt !== undefined);
  const untrusted = new Set(names.filter((name) => config[name]!.trust === "untrusted"));
  const taken = new Map<string, string>();
  let drafts: ToolDraft[];
  try {
    drafts = live.flatMap(({ connection, listed }) => convertListed(connection, listed, taken, warnings, untrusted.has(connection.name)));
  } catch (error) {
    await Promise.all(live.map(({ connection }) => connection.close()));
    throw error;
  }
  const deferred = shouldDefer(drafts, options);
  const refreshes = new Map<string, Promise<void>>();
  const waiting = new Set<string>();
  const current = new Map(live.map(({ connection, listed }) => [connection.name, new Set(listed.map((tool) => tool.name))]));
  const build = (draft: ToolDraft, isDeferred: boolean) =>
    createMcpTool({
      connection: draft.connection,
      serverToolName: draft.listed.name,
      definition: draft.definition,
      // A workspace's server says what it likes about itself: its read-only hint does not spare a question.
      readOnly: draft.listed.readOnly === true && !untrusted.has(draft.connection.name),
      // Nor does its idempotent hint spare a pause after a crash in a durable run.
      idempotent: draft.listed.idempotent === true && !untrusted.has(draft.connection.name),
      callTimeoutMs: options.callTimeoutMs ?? 120_000,
      maxResultCharacters: options.maxResultCharacters ?? defaultMaxResultCharacters,
      confirm: options.confirm ?? "unless-read-only",
      deferred: isDeferred,
      isListed: () => current.get(draft.connection.name)?.has(draft.listed.name) === true,
      refreshed: () => refreshes.get(draft.connection.name) ?? Promise.resolve(),
    });
  const tools = Object.freeze(drafts.map((draft) => build(draft, deferred)).sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0)));
  const byName = new Map<string, Tool>(tools.map((tool) => [tool.name, tool]));
  const listeners = new Set<(change: McpToolsChange) => void>();
  const lateTools = createLateToolSet();
  const prefixedByServer = new Map<string, Map<string, string>>();
  for (const draft of drafts) {
    const byTool = prefixedByServer.get(draft.connection.name) ?? new Map<string, string>();
    byTool.set(draft.listed.name, draft.definition.name);
    prefixedByServer.set(draft.connection.name, byTool);
  }
  for (const { connection } of live) {
    // One refresh at a time per server, in order, so two quick notifications cannot interleave their diffs.
    connection.onToolListChanged(() => {
      // A refresh that has not started yet reads the list as it is then: a flood of notifications
      // (2,000 were 2,000 tools/list requests, one after another) costs one more read, not one each.
      if (waiting.has(connection.name)) return;
      waiting.add(connection.name);
      const previous = refreshes.get(connection.name) ?? Promise.resolve();
      refreshes.set(connection.name, previous.then(async () => {
        waiting.delete(connection.name);
        let listed: McpListedTool[];
        try {
          listed = await connection.listTools();
        } catch {
          return;
        }
        const known = prefixedByServer.get(connection.name) ?? new Map<string, string>();
        prefixedByServer.set(connection.name, known);
        const before = current.get(connection.name) ?? new Set<string>();
        const now = new Set(listed.map((tool) => tool.name));
        current.set(connection.name, now);
        const fresh = listed.filter((tool) => !before.has(tool.name));
        // A clash mid-session cannot end the run: the later tool is left out (never renamed).
        const added = convertListed(connection, fresh, taken, [], untrusted.has(connection.name), "skip").map((draft) => {
          known.set(draft.listed.name, draft.definition.name);
          return build(draft, true);
        });
        const removed = [...before].filter((name) => !now.has(name)).flatMap((name) => known.get(name) ?? []).sort();
        if (added.length === 0 && removed.length === 0) return;
        for (const tool of added) byName.set(tool.name, tool);
        const change: McpToolsChange = {
          server: connection.name,
          added: added.sort((left, right) => (left.name < right.name ? -1 : 1)),
          removed,
          ...(untrusted.has(connection.name) ? { untrusted: true as const } : {}),
        };
        // Before the listeners: a delta message must never name a tool the agent cannot route yet.
        lateTools.update(change);
        for (const listener of listeners) {
          try {
            listener(change);
          } catch {
            // A listener's failure must not stop later refreshes (nor fail the call that waits for them).
          }
        }
      }));
    });
  }
  const pids = live.flatMap(({ connection }) => (connection.pid === undefined ? [] : [connection.pid]));
  // If the process exits without close() (an uncaught error), the children must not outlive it.
  const onExit = () => {
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
  };
  process.once("exit", onExit);
  let closing: Promise<void> | undefined;
  return {
    tools,
    warnings,
    servers: live.map(({ connection }) => ({ name: connection.name, tools: drafts.filter((draft) => draft.connection === connection).length })),
    untrustedTools: Object.freeze(tools.filter((tool) => drafts.some((draft) => draft.definition.name === tool.name && untrusted.has(draft.connection.name))).map((tool) => tool.name)),
    findTool(name) {
      return byName.get(name);
    },
    lateTools,
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closing ??= (async () => {
        process.removeListener("exit", onExit);
        listeners.clear();
        await Promise.all(live.map(({ connection }) => connection.close()));
      })();
      return closing;
    },
  };
}

interface ToolDraft {
  connection: McpServerConnection;
  listed: McpListedTool;
  definition: ToolDefinition;
}

/**
 * The drafts of a server's tools. `taken` maps each name given so far to its server. Two tools whose
 * names become equal once cleaned are never renamed apart (a workspace's server `git.hub` would take
 * the user's `git_hub` tool name, and its `allow` entry): between servers that is an error naming
 * both, within one server (or mid-session, `onClash: "skip"`) the later tool is left out with a warning.
 */
function convertListed(
  connection: McpServerConnection,
  listed: readonly McpListedTool[],
  taken: Map<string, string>,
  warnings: McpWarning[],
  untrusted: boolean,
  onClash: "throw" | "skip" = "throw",
): ToolDraft[] {
  const drafts: ToolDraft[] = [];
  // Sorted first, so which of two clashing tools of one server is left out does not depend on the server's order.
  for (const tool of [...listed].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))) {
    if (typeof tool.name !== "string" || tool.name.length === 0 || tool.name.length > 256) {
      warnings.push({ code: "tool_skipped", server: connection.name, message: `MCP server '${connection.name}': a tool with an empty or over-long name was skipped.` });
      continue;
    }
    const name = mcpToolName(connection.name, tool.name);
    const owner = taken.get(name);
    if (owner !== undefined && owner !== connection.name && onClash === "throw") {
      throw new ConfigError(
        "config_file_invalid",
        `MCP servers '${owner}' and '${connection.name}' both give a tool the name ${name} (server names are cleaned to letters, digits, '_' and '-'); ` +
          "ctxkit does not rename one apart from the other. Rename one of the servers in its config.",
      );
    }
    if (owner !== undefined) {
      warnings.push({
        code: "tool_skipped",
        server: connection.name,
        message: `MCP server '${connection.name}': tool '${tool.name.slice(0, 80)}' was skipped: its name ${name} is already the name of a tool of '${owner}'.`,
      });
      continue;
    }
    const converted = convertMcpTool(connection.name, tool, name, { untrusted });
    if ("problem" in converted) {
      warnings.push({ code: "tool_skipped", server: connection.name, message: `MCP server '${connection.name}': tool '${tool.name.slice(0, 80)}' was skipped: ${converted.problem}.` });
      continue;
    }
    taken.set(name, connection.name);
    drafts.push({ connection, listed: tool, definition: converted.definition });
  }
  return drafts;
}

function shouldDefer(drafts: readonly ToolDraft[], options: ConnectMcpServersOptions): boolean {
  const mode = options.defer ?? "auto";
  if (mode !== "auto") return mode === "always";
  const threshold = { ...defaultDeferThreshold, ...options.deferThreshold };
  const characters = drafts.reduce((sum, draft) => sum + JSON.stringify(draft.definition).length, 0);
  return drafts.length > threshold.tools || characters > threshold.characters;
}

/**
 * The options, checked before any server starts: from plain JavaScript a negative, string or
 * misspelt one started servers that then failed in the model's view ("-10 are shown", "did not
 * answer within 0 s", a start that "timed out") or was silently read as another value.
 */
function checkConnectOptions(options: ConnectMcpServersOptions): void {
  const whole = (name: keyof ConnectMcpServersOptions, minimum: number) => {
    if (options[name] !== undefined) requireWholeNumberOption("connectMcpServers'", name, options[name], minimum);
  };
  whole("startTimeoutMs", 1);
  whole("callTimeoutMs", 1);
  whole("maxResultCharacters", 1);
  whole("maxToolsPerServer", 1);
  if (options.defer !== undefined && !["auto", "always", "never"].includes(options.defer)) {
    throw new ConfigError("option_invalid", `connectMcpServers' \`defer\` must be "auto", "always" or "never"; got ${JSON.stringify(options.defer)}.`);
  }
}
