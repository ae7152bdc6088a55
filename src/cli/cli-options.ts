import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError } from "../types/index.js";
import { configSettings, invocationFlags, type FlagDeclaration } from "./config/config-settings.js";
import { describeArgumentError } from "./describe-argument-error.js";

type Declared = (typeof configSettings)[keyof typeof configSettings] | (typeof invocationFlags)[number];
type WithFlag = Extract<Declared, { flag: string }>;
type OptionOf<Declaration extends FlagDeclaration> = Declaration["input"] extends "switch"
  ? { type: "boolean"; short?: string }
  : Declaration["input"] extends "repeatable"
    ? { type: "string"; multiple: true; short?: string }
    : { type: "string"; short?: string };

/** The flags every command that talks to a model accepts, by long name: from the config settings' table. */
export type CommonOptions = { [Declaration in WithFlag as Declaration["flag"]]: OptionOf<Declaration> };

/** What parseArgs gives for each of them: a string, a boolean, or the strings of a repeated flag. */
export type CliFlags = {
  [Name in keyof CommonOptions]?: CommonOptions[Name]["type"] extends "boolean" ? boolean : CommonOptions[Name] extends { multiple: true } ? string[] : string;
};

function toOption(declaration: FlagDeclaration): NonNullable<ParseArgsConfig["options"]>[string] {
  return {
    type: declaration.input === "switch" ? "boolean" : "string",
    ...(declaration.input === "repeatable" ? { multiple: true } : {}),
    ...(declaration.short ? { short: declaration.short } : {}),
  };
}

/** Options every command that talks to a model accepts (parseArgs' form of the settings' table). */
export const commonOptions = Object.fromEntries(
  [...Object.values(configSettings), ...invocationFlags].flatMap((declaration: FlagDeclaration | Omit<FlagDeclaration, "flag"> & { flag?: string }) =>
    declaration.flag === undefined ? [] : [[declaration.flag, toOption(declaration as FlagDeclaration)]],
  ),
) as unknown as CommonOptions;

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
      options: { ...(commonOptions as NonNullable<ParseArgsConfig["options"]>), ...extra },
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
    return { flags: values as CliFlags, positionals, extra: values as Record<string, unknown> };
  } catch (error) {
    const options = { ...(commonOptions as NonNullable<ParseArgsConfig["options"]>), ...extra };
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
