import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError } from "../types/index.js";
import { configSettings, invocationFlags, type FlagDeclaration } from "./config/config-settings.js";
import { describeArgumentError } from "./describe-argument-error.js";
import { isNumberFlag, parseNumberFlag, type NumberFlag } from "./number-flags.js";

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

/** The flags a command takes: parseArgs' options, and flags that take numbers (see number-flags.ts). */
export type CommandOptions = Record<string, NonNullable<ParseArgsConfig["options"]>[string] | NumberFlag>;

/** Some of the common flags (`--json`, `--workspace`, `--model`…), for a command that takes only those. */
export function pickCommonOptions<Name extends keyof CommonOptions>(...names: Name[]): Pick<CommonOptions, Name> {
  return Object.fromEntries(names.map((name) => [name, commonOptions[name]])) as Pick<CommonOptions, Name>;
}

/** The common flags without some (`ctxkit chat` takes every agent option but --json and --verbose). */
export function commonOptionsExcept<Name extends keyof CommonOptions>(...names: Name[]): Omit<CommonOptions, Name> {
  return Object.fromEntries(Object.entries(commonOptions).filter(([name]) => !(names as string[]).includes(name))) as Omit<CommonOptions, Name>;
}

/**
 * Parses a command's arguments against exactly the flags it declares (and --help, -h): its help
 * lists the same ones (test/cli-help-lists-parsed-flags.test.ts). An unknown flag or a missing value
 * is a `usage_invalid` error (exit code 2) that names the closest known flag; the CLI prints the
 * command's help after it. A flag declared with a number rule is checked here, for every command at
 * once, before the command does any work, and `extra` holds its number (its numbers, for a list;
 * milliseconds, for a duration).
 */
export function parseCommandLine(args: string[], declared: CommandOptions = {}): ParsedCommandLine & { extra: Record<string, unknown> } {
  const options = { help: commonOptions.help, ...toParseArgsOptions(declared) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, allowNegative: true, strict: true });
  } catch (error) {
    throw new ConfigError("usage_invalid", describeArgumentError(error, Object.keys(options)));
  }
  const values = parsed.values as Record<string, unknown>;
  // `flags` keeps the text (a command may hand it on to resolveConfig, which reads text); `extra` has the numbers.
  const converted = { ...values };
  for (const [name, option] of Object.entries(declared)) {
    if (isNumberFlag(option) && typeof values[name] === "string") converted[name] = parseNumberFlag(name, values[name], option.number);
  }
  return { flags: values as CliFlags, positionals: parsed.positionals, extra: converted };
}

function toParseArgsOptions(declared: CommandOptions): NonNullable<ParseArgsConfig["options"]> {
  return Object.fromEntries(Object.entries(declared).map(([name, option]) => [name, isNumberFlag(option) ? { type: "string" as const } : option]));
}
