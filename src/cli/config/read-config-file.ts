import { existsSync, statSync } from "node:fs";
import { ConfigError } from "../../types/index.js";
import { checkConfigFile, type ConfigFile } from "../../config/config-schema.js";
import { describeConfigIssue } from "./describe-config-issue.js";
import { readJsonFileText } from "../../config/read-json-file-text.js";

// A config file is a handful of keys; anything this large is not one (and is not read whole).
const maxConfigFileBytes = 1_000_000;

/** Reads and validates a ctxkit config file; undefined when there is none. Errors name the file and the key. */
export function readConfigFile(path: string): ConfigFile | undefined {
  if (!existsSync(path)) return undefined;
  if (statSync(path).size > maxConfigFileBytes) {
    throw new ConfigError("config_file_invalid", `${path} is over ${maxConfigFileBytes.toLocaleString("en-US")} bytes; a ctxkit config file holds a few settings. Fix or remove it.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readJsonFileText(path));
  } catch (error) {
    throw new ConfigError("config_file_invalid", `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}). Fix or remove it.`);
  }
  return validateConfigFile(parsed, path);
}

/** The schema's check of a config file's contents, with the first problem as one sentence. */
export function validateConfigFile(value: unknown, path: string): ConfigFile {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError("config_file_invalid", `${path} must hold a JSON object like {"model": "qwen3:8b"}.`);
  }
  const result = checkConfigFile(value);
  if (result.success) return result.value;
  const { issue, key } = result;
  const raw = key === undefined ? undefined : (value as Record<string, unknown>)[key];
  const shown = issue.kind === "invalid" && issue.item !== undefined ? (raw as unknown[])[issue.item] : raw;
  throw new ConfigError("config_file_invalid", describeConfigIssue(issue, { file: path }, key, shown));
}
