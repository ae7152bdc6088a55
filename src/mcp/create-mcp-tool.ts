import type { Tool, ToolDefinition, ToolOutput } from "../types/index.js";
import type { McpServerConnection } from "./connect-mcp-server.js";
import { describeError } from "./connect-mcp-server.js";
import { convertMcpResult } from "./convert-mcp-result.js";

/** Which MCP tools ask the person before a call runs. */
export type McpConfirmation = "unless-read-only" | "always" | "never";

export interface McpToolOptions {
  connection: McpServerConnection;
  /** The tool's name on its server (the definition's name is the prefixed one). */
  serverToolName: string;
  definition: ToolDefinition;
  readOnly: boolean;
  /** The server says a repeated call does no more than the first (a durable run re-runs it after a crash). */
  idempotent?: boolean;
  callTimeoutMs: number;
  maxResultCharacters: number;
  confirm: McpConfirmation;
  deferred: boolean;
  /** Whether the server still lists the tool (a tool removed mid-session answers with an error). */
  isListed: () => boolean;
  /**
   * Resolves once tool-list refreshes the server announced so far are done: a call that changed the
   * list returns after the change is known, so its delta lands right after its result.
   */
  refreshed: () => Promise<void>;
}

/** A refresh that takes longer than this does not hold the call's result back. */
const refreshWaitMs = 5_000;

/**
 * A ctxkit tool that calls an MCP server's tool. Every failure — the server gone, a hang past the
 * time limit, an abort, a malformed or error result — comes back as an error result for the model,
 * so the run goes on. The output is external data (`source: "external"`).
 */
export function createMcpTool(options: McpToolOptions): Tool {
  const { connection, serverToolName, definition } = options;
  return {
    ...definition,
    source: "external",
    risk: options.readOnly ? "read" : "send",
    parallelSafe: options.readOnly,
    ...(options.idempotent ? { idempotent: true } : {}),
    timeoutMs: options.callTimeoutMs,
    requiresConfirmation: options.confirm === "always" || (options.confirm === "unless-read-only" && !options.readOnly),
    ...(options.deferred ? { deferred: true } : {}),
    async execute(args, context): Promise<ToolOutput> {
      if (!options.isListed()) {
        return failure("unknown_tool", `The MCP server '${connection.name}' no longer offers the tool '${serverToolName}' (its tool list changed). Do not call it again.`);
      }
      if (connection.closedReason) return failure("failed", `The MCP server '${connection.name}' is not available: ${connection.closedReason}.`);
      try {
        const result = await connection.callTool(serverToolName, args, { signal: context.signal, timeoutMs: options.callTimeoutMs });
        await waitAtMost(options.refreshed(), refreshWaitMs);
        return convertMcpResult(result, options.maxResultCharacters);
      } catch (error) {
        if (context.signal.aborted) return failure("timeout", `The call to '${serverToolName}' on the MCP server '${connection.name}' was stopped (aborted or over its time limit).`);
        const timedOut = /timed out|timeout/i.test(describeError(error));
        return failure(
          timedOut ? "timeout" : "failed",
          timedOut
            ? `The MCP server '${connection.name}' did not answer '${serverToolName}' within ${Math.round(options.callTimeoutMs / 1000)} s.`
            : `The MCP server '${connection.name}' failed on '${serverToolName}': ${connection.closedReason ?? describeError(error)}.`,
        );
      }
    },
  };
}

async function waitAtMost(promise: Promise<void>, milliseconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, milliseconds)))]);
  clearTimeout(timer);
}

function failure(errorKind: ToolOutput["errorKind"], content: string): ToolOutput {
  return { content, isError: true, ...(errorKind ? { errorKind } : {}) };
}
