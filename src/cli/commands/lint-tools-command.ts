import { escapeForTerminal } from "../../context/escape-for-terminal.js";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { lintToolDefinitions } from "../../prompts/lint-tool-definitions.js";
import { CtxkitError, type ToolDefinition } from "../../types/index.js";
import { stripByteOrderMark } from "../../types/byte-order-mark.js";
import { parseCommandLine, pickCommonOptions } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { connectMcpServers } from "../../mcp/index.js";
import { resolveMcpServers } from "../resolve-mcp-servers.js";
import { refuseExtraArguments } from "../refuse-extra-arguments.js";

export const lintToolsHelp = `Usage: ctxkit lint tools <file|module> [--json]
       ctxkit lint tools --mcp-config <file> [--json]

Checks tool definitions: missing or one-line descriptions, no "when to use", parameters without
descriptions, values listed in prose that should be enums, near-duplicate names, more than 20
tools, and schemas that OpenAI's / Anthropic's strict modes reject.

<file> is JSON: a list (or {"tools": [...]}) of OpenAI schemas {"type": "function", "function": {...}},
Anthropic tools {"name", "description", "input_schema"}, MCP tools {"name", "description", "inputSchema"},
or ctxkit definitions {"name", "description", "parameters"}. A module (.js, .mjs) exports such a list
as \`tools\` or as its default export.

--mcp-config <file> (repeatable) starts the MCP servers of {"mcpServers": {...}} (the shape Claude Code
and Cursor use), lints the tools they list as the model would see them (mcp__<server>__<tool>), and
stops them.

Options:
  --mcp-config <file>  MCP servers to start and lint (repeatable)
  --json               print {"tools", "findings": [{"code", ...}]} instead of text

Exit codes: 0 no findings; 1 findings (or a file or server could not be read); 2 a usage error.
`;

export const lintToolsOptions = pickCommonOptions("json", "mcp-config");

/** `ctxkit lint tools <file|module>`. */
export async function lintToolsCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals } = parseCommandLine(args, lintToolsOptions);
  if (flags.help) {
    io.stdout.write(lintToolsHelp);
    return 0;
  }
  const [target] = positionals;
  refuseExtraArguments(positionals, 1, "lint tools takes one file or module (a list of tools in it; --mcp-config <file> is repeatable)");
  if (flags["mcp-config"] !== undefined && target === undefined) return lintMcpTools(flags["mcp-config"], flags.json === true, io);
  if (target === undefined) {
    io.stderr.write(lintToolsHelp);
    return 2;
  }
  const path = resolve(io.cwd, target);
  const tools = await loadToolDefinitions(path);
  const findings = lintToolDefinitions(tools);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify({ file: path, tools: tools.length, findings })}\n`);
  } else {
    for (const finding of findings) io.stdout.write(`${finding.code.padEnd(30)} ${escapeForTerminal(finding.target ?? "(all tools)")}: ${escapeForTerminal(finding.message)}\n`);
    io.stdout.write(`${tools.length} tools, ${findings.length} findings\n`);
  }
  return findings.length === 0 ? 0 : 1;
}

/** Lints the tools that real MCP servers list; servers that fail to start are reported on stderr. */
async function lintMcpTools(files: string[], json: boolean, io: CliIo): Promise<number> {
  const { servers, warnings } = resolveMcpServers({ files, cwd: io.cwd });
  const connections = await connectMcpServers(servers, { defer: "never", cwd: io.cwd });
  const tools: ToolDefinition[] = connections.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  await connections.close();
  for (const warning of [...warnings, ...connections.warnings]) io.stderr.write(`ctxkit lint tools: ${escapeForTerminal(warning.message)}\n`);
  const findings = lintToolDefinitions(tools);
  if (json) {
    io.stdout.write(`${JSON.stringify({ servers: connections.servers, tools: tools.length, findings })}\n`);
  } else {
    for (const finding of findings) io.stdout.write(`${finding.code.padEnd(30)} ${escapeForTerminal(finding.target ?? "(all tools)")}: ${escapeForTerminal(finding.message)}\n`);
    io.stdout.write(`${connections.servers.map((server) => `${escapeForTerminal(server.name)}: ${server.tools} tools`).join(", ") || "no server answered"}; ${findings.length} findings\n`);
  }
  return findings.length === 0 && connections.warnings.length === 0 ? 0 : 1;
}

async function loadToolDefinitions(path: string): Promise<ToolDefinition[]> {
  let value: unknown;
  if (/\.(m?js|cjs)$/.test(path)) {
    const module = (await import(pathToFileURL(path).href)) as { tools?: unknown; default?: unknown };
    value = module.tools ?? module.default;
  } else {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      throw new CtxkitError("option_invalid", `Cannot read ${path}: ${(error as Error).message}. Pass a JSON file or a JavaScript module of tool definitions.`);
    }
    try {
      value = JSON.parse(stripByteOrderMark(text)) as unknown;
    } catch (error) {
      throw new CtxkitError("option_invalid", `${path} is not valid JSON (${(error as Error).message}).`);
    }
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value) && "tools" in value) value = (value as { tools: unknown }).tools;
  if (!Array.isArray(value)) throw new CtxkitError("option_invalid", `${path} holds no list of tools. Give a list, {"tools": [...]}, or a module exporting \`tools\`.`);
  return value.map((entry, index) => toDefinition(entry, `${path}[${index}]`));
}

function toDefinition(entry: unknown, where: string): ToolDefinition {
  const record = (entry ?? {}) as Record<string, unknown>;
  const inner = (record.type === "function" && typeof record.function === "object" ? record.function : record) as Record<string, unknown>;
  const parameters = inner.parameters ?? inner.input_schema ?? inner.inputSchema ?? { type: "object", properties: {} };
  if (typeof inner.name !== "string") throw new CtxkitError("option_invalid", `${where} has no name. Each tool needs a name, a description and a parameters schema.`);
  return { name: inner.name, description: typeof inner.description === "string" ? inner.description : "", parameters: parameters as ToolDefinition["parameters"] };
}
