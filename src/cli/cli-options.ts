import { parseArgs, type ParseArgsConfig } from "node:util";
import { CtxkitError } from "../types/index.js";

/** Options every command that talks to a model accepts. */
export const commonOptions = {
  provider: { type: "string" },
  vendor: { type: "string" },
  "base-url": { type: "string" },
  model: { type: "string" },
  "api-key": { type: "string" },
  workspace: { type: "string" },
  session: { type: "string" },
  "max-iterations": { type: "string" },
  "context-window": { type: "string" },
  // Context compression: `--compression <policy>` (none, individual, combined, context-aware, context-aware-citations, windowed, ctxkit).
  compression: { type: "string" },
  tools: { type: "string" },
  yes: { type: "boolean", short: "y" },
  "data-dir": { type: "string" },
  json: { type: "boolean" },
  color: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  // The status bar: `--status-bar <replace|append|auto|off>` and `--no-<part>` to switch a part off.
  "status-bar": { type: "string" },
  timestamps: { type: "boolean" },
  counter: { type: "boolean" },
  todo: { type: "boolean" },
  errors: { type: "boolean" },
  state: { type: "boolean" },
  // Agent Skills: `--skills <dir>` (repeatable), searched before the workspace's and home's skill folders.
  skills: { type: "string", multiple: true },
} satisfies NonNullable<ParseArgsConfig["options"]>;

export type CliFlags = {
  provider?: string;
  vendor?: string;
  "base-url"?: string;
  model?: string;
  "api-key"?: string;
  workspace?: string;
  session?: string;
  "max-iterations"?: string;
  "context-window"?: string;
  compression?: string;
  tools?: string;
  yes?: boolean;
  "data-dir"?: string;
  json?: boolean;
  color?: boolean;
  help?: boolean;
  "status-bar"?: string;
  timestamps?: boolean;
  counter?: boolean;
  todo?: boolean;
  errors?: boolean;
  state?: boolean;
  skills?: string[];
};

export interface ParsedCommandLine {
  flags: CliFlags;
  positionals: string[];
}

/** Parses a command's arguments; an unknown flag is a clear error naming `--help`. */
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
    throw new CtxkitError("config_invalid", `${error instanceof Error ? error.message : String(error)}. Run 'ctxkit --help' for the options.`);
  }
}

export function parsePositiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new CtxkitError("config_invalid", `${flag} must be a positive whole number, got '${value}'.`);
  }
  return parsed;
}
