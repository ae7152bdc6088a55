import { existsSync, readFileSync, statSync } from "node:fs";
import { ConfigError } from "../../types/index.js";
import { configFileSchema, type ConfigFile, type ConfigKey } from "./config-schema.js";
import { describeConfigIssue } from "./describe-config-issue.js";

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
    parsed = JSON.parse(readFileSync(path, "utf8"));
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
  const result = configFileSchema.safeParse(value);
  if (result.success) return result.data;
  // Unknown keys first: a typo'd key is the likeliest mistake, and its value is not checked.
  const issues = [...result.error.issues].sort((left, right) => Number(right.code === "unrecognized_keys") - Number(left.code === "unrecognized_keys"));
  const issue = issues[0]!;
  const key = issue.path[0] as ConfigKey | undefined;
  const raw = key === undefined ? undefined : (value as Record<string, unknown>)[key];
  throw new ConfigError("config_file_invalid", describeConfigIssue(issue, { file: path }, key, issue.path.length > 1 ? (raw as unknown[])[issue.path[1] as number] : raw));
}
