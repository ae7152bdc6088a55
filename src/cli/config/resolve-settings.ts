import { ConfigError } from "../../types/index.js";
import type { CliFlags } from "../cli-options.js";
import { configSettings, type SettingDeclaration } from "./config-settings.js";
import { checkConfigValue, type ConfigFile, type ConfigKey } from "../../config/config-schema.js";
import { describeConfigIssue, type ValueOrigin } from "./describe-config-issue.js";

export type ConfigSource = "flag" | "environment" | "workspace config" | "user config" | "default";

/** Where one resolved value came from: the source, and the flag, variable or file by name. */
export interface SettingOrigin {
  source: ConfigSource;
  flag?: string;
  variable?: string;
  file?: string;
}

/** A resolved value with its origin (several for the lists that merge: skills, mcpServers, externalTools). */
export interface ResolvedSetting {
  value: unknown;
  origin: SettingOrigin | SettingOrigin[];
}

export interface SettingInputs {
  flags: CliFlags;
  environment: NodeJS.ProcessEnv;
  workspaceFile?: { path: string; config: ConfigFile };
  userFile?: { path: string; config: ConfigFile };
}

export interface Candidate<Key extends ConfigKey> {
  value: NonNullable<ConfigFile[Key]>;
  origin: SettingOrigin;
}

const trueWords = ["1", "true", "yes", "on"];

/** A flag's or a variable's text as the config file's JSON value (the schema then checks it). */
function fromText(setting: SettingDeclaration, text: string | string[] | boolean): unknown {
  if (typeof text === "boolean" || Array.isArray(text)) return text;
  switch (setting.input) {
    case "integer":
    case "number":
      return text.trim() === "" ? Number.NaN : Number(text);
    case "money":
      return text.trim() === "" ? Number.NaN : Number(text.trim().replace(/^\$/, ""));
    case "switch":
      return trueWords.includes(text.trim().toLowerCase());
    case "list":
    case "repeatable":
      return text.split(",").map((item) => item.trim()).filter((item) => item !== "");
    case "text":
      return text;
  }
}

function check<Key extends ConfigKey>(key: Key, value: unknown, origin: ValueOrigin, raw: unknown): NonNullable<ConfigFile[Key]> {
  const result = checkConfigValue(key, value);
  if (result.success) return result.value;
  // A bad flag value is a usage error (exit 2, with the command's help); a bad variable is a setting to fix.
  throw new ConfigError("flag" in origin ? "usage_invalid" : "option_invalid", describeConfigIssue(result.issue, origin, key, raw));
}

/**
 * The candidates for one setting, highest precedence first: the flag, the environment variables
 * (the table's, then `extraVariables`), the workspace's config file, the user's config file.
 */
export function settingCandidates<Key extends ConfigKey>(key: Key, inputs: SettingInputs, extraVariables: readonly string[] = []): Array<Candidate<Key>> {
  const setting: SettingDeclaration = configSettings[key];
  const candidates: Array<Candidate<Key>> = [];
  if (setting.flag !== undefined) {
    const given = (inputs.flags as Record<string, string | string[] | boolean | undefined>)[setting.flag];
    if (given !== undefined && given !== "") {
      candidates.push({ value: check(key, fromText(setting, given), { flag: `--${setting.flag}` }, given), origin: { source: "flag", flag: `--${setting.flag}` } });
    }
  }
  for (const variable of [...(setting.env ?? []), ...extraVariables]) {
    const given = inputs.environment[variable];
    if (given === undefined || given === "") continue;
    candidates.push({ value: check(key, fromText(setting, given), { variable }, given), origin: { source: "environment", variable } });
    break;
  }
  // File values were checked against the whole schema when the file was read.
  const workspaceValue = inputs.workspaceFile?.config[key];
  if (workspaceValue !== undefined) candidates.push({ value: workspaceValue as NonNullable<ConfigFile[Key]>, origin: { source: "workspace config", file: inputs.workspaceFile!.path } });
  const userValue = inputs.userFile?.config[key];
  if (userValue !== undefined) candidates.push({ value: userValue as NonNullable<ConfigFile[Key]>, origin: { source: "user config", file: inputs.userFile!.path } });
  return candidates;
}
