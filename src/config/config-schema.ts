import * as v from "valibot";
import { budgetModes, cacheRetentions, cacheTtls, compressionPolicyNames, deferToolsModes, notesLocations, providerNames, reasoningEfforts, reasoningRoundTripModes, statusBarModes, vendorNames } from "./config-values.js";

// valibot rather than zod: the same checks and inferred types in 1.9 MB installed instead of 8.4
// (issue 23 keeps the library's install under 40 MB; only the CLI reads config files). Each check
// carries its sentence; the file, flag or variable it came from is put in front of it by
// describeConfigIssue. Numbers are finite as well: a flag's "Infinity" is no budget.
const text = () => v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"));
const positiveInteger = () => v.pipe(v.number("must be a positive whole number"), v.integer("must be a positive whole number"), v.gtValue(0, "must be a positive whole number"));
const positiveNumber = () => v.pipe(v.number("must be a positive number"), v.finite("must be a positive number"), v.gtValue(0, "must be a positive number"));
const secondsMessage = "must be a number of seconds ≥ 0 (0 turns the limit off)";
const seconds = () => v.pipe(v.number(secondsMessage), v.finite(secondsMessage), v.minValue(0, secondsMessage));
const temperatureMessage = "must be a number from 0 to 2";
const temperature = () => v.pipe(v.number(temperatureMessage), v.minValue(0, temperatureMessage), v.maxValue(2, temperatureMessage));
const flag = () => v.boolean("must be a boolean (true or false)");
const names = () => v.array(v.string("must be a list of strings"), "must be a list of strings");
const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) => v.picklist(values);
const serversMessage = 'must be an object of servers, {"name": {"command": …} | {"url": …}}';
// A workspace's MCP server the person approved: where, its name and its whole definition as it was.
const mcpApproval = () =>
  v.strictObject({ workspace: text(), server: text(), definition: v.record(v.string(), v.unknown(), "must be the server's definition"), approvedAt: v.optional(v.string()) });
// valibot's record takes an array too (as an object of its indexes); a list of servers has no
// names, so it is refused before the record sees it.
const servers = () => v.pipe(v.custom<unknown>((value) => !Array.isArray(value), serversMessage), v.record(v.string(), v.unknown(), serversMessage));

/**
 * Every key a `ctxkit.config.json` (workspace) or `~/.config/ctxkit/config.json` (user) may hold,
 * with its type: the one declaration the CLI's flags, help texts, validation and `ConfigFile` type
 * come from (see config-settings.ts for the flag, variable and help of each key).
 */
export const configFileSchema = v.strictObject({
  provider: v.optional(oneOf(providerNames)),
  vendor: v.optional(oneOf(vendorNames)),
  baseURL: v.optional(text()),
  apiKey: v.optional(text()),
  model: v.optional(text()),
  modelPath: v.optional(text()),
  temperature: v.optional(temperature()),
  maxOutputTokens: v.optional(positiveInteger()),
  contextWindow: v.optional(positiveInteger()),
  requestTimeout: v.optional(seconds()),
  idleTimeout: v.optional(seconds()),
  cacheTtl: v.optional(oneOf(cacheTtls)),
  cacheKey: v.optional(text()),
  cacheRetention: v.optional(oneOf(cacheRetentions)),
  reasoningEffort: v.optional(oneOf(reasoningEfforts)),
  compactThreshold: v.optional(positiveInteger()),
  reasoningRoundTrip: v.optional(oneOf(reasoningRoundTripModes)),
  dataDir: v.optional(text()),
  databaseUrl: v.optional(text()),
  system: v.optional(text()),
  projectInstructions: v.optional(flag()),
  logRequests: v.optional(text()),
  tools: v.optional(names()),
  allow: v.optional(names()),
  yes: v.optional(flag()),
  allowLoopbackFetch: v.optional(flag()),
  trustWorkspace: v.optional(flag()),
  trustedWorkspaces: v.optional(v.record(v.string(), flag(), 'must be an object of workspace paths, {"/path": true | false}')),
  allowUnderTaint: v.optional(names()),
  externalTools: v.optional(names()),
  untrustedContentNotice: v.optional(flag()),
  maxIterations: v.optional(positiveInteger()),
  skills: v.optional(names()),
  mcpServers: v.optional(servers()),
  mcpApprovals: v.optional(v.array(mcpApproval(), "must be a list of approvals")),
  deferTools: v.optional(oneOf(deferToolsModes)),
  toolSearchEmbeddingsUrl: v.optional(text()),
  toolSearchEmbeddingsModel: v.optional(text()),
  toolSearchEmbeddingsApiKeyEnv: v.optional(text()),
  toolSearchEmbeddingModelPath: v.optional(text()),
  compression: v.optional(oneOf(compressionPolicyNames)),
  statusBar: v.optional(oneOf(statusBarModes)),
  statusBarTimestamps: v.optional(flag()),
  statusBarCounter: v.optional(flag()),
  statusBarTodo: v.optional(flag()),
  statusBarErrors: v.optional(flag()),
  statusBarState: v.optional(flag()),
  notes: v.optional(oneOf(notesLocations)),
  subAgents: v.optional(flag()),
  color: v.optional(flag()),
  budgetTokens: v.optional(positiveInteger()),
  budgetCost: v.optional(positiveNumber()),
  budgetMode: v.optional(oneOf(budgetModes)),
});

/** The contents of a config file, as the schema accepts them. */
export type ConfigFile = v.InferOutput<typeof configFileSchema>;
export type ConfigKey = keyof ConfigFile;

export const configKeys = Object.keys(configFileSchema.entries) as ConfigKey[];

/**
 * What was wrong with a value, free of the validator's own issue shape: keys the schema does not
 * have, a value not among a setting's choices, or any other refusal with its sentence (and the
 * list item it is about, for a file's lists).
 */
export type ConfigIssue = { kind: "unknown_keys"; keys: string[] } | { kind: "not_one_of"; values: readonly string[] } | { kind: "invalid"; message: string; item?: number };

export type ConfigCheck<Value> = { success: true; value: Value } | { success: false; issue: ConfigIssue; key?: ConfigKey };

/** Checks a whole config file's object; the first problem, unknown keys before bad values (a typo'd key is the likeliest mistake). */
export function checkConfigFile(value: object): ConfigCheck<ConfigFile> {
  const result = v.safeParse(configFileSchema, value);
  if (result.success) return { success: true, value: result.output };
  const unknown = Object.keys(value).filter((key) => !Object.prototype.hasOwnProperty.call(configFileSchema.entries, key));
  if (unknown.length > 0) return { success: false, issue: { kind: "unknown_keys", keys: unknown } };
  const issue = result.issues[0];
  const key = issue.path?.[0]?.key as ConfigKey | undefined;
  const item = issue.path?.[1]?.key;
  return { success: false, issue: toConfigIssue(issue, typeof item === "number" ? item : undefined), key };
}

/** Checks one setting's value (from a flag or a variable) against its key's schema. */
export function checkConfigValue<Key extends ConfigKey>(key: Key, value: unknown): ConfigCheck<NonNullable<ConfigFile[Key]>> {
  const result = v.safeParse(configFileSchema.entries[key], value);
  if (result.success) return { success: true, value: result.output as NonNullable<ConfigFile[Key]> };
  return { success: false, issue: toConfigIssue(result.issues[0], undefined), key };
}

function toConfigIssue(issue: v.BaseIssue<unknown>, item: number | undefined): ConfigIssue {
  // The choices, for a library user's message (the CLI's comes from its settings table).
  if (issue.type === "picklist") return { kind: "not_one_of", values: picklistValues(issue) };
  return item === undefined ? { kind: "invalid", message: issue.message } : { kind: "invalid", message: issue.message, item };
}

/** valibot names a picklist's options only in `expected`: ("none" | "individual" | …). */
function picklistValues(issue: v.BaseIssue<unknown>): readonly string[] {
  return [...(issue.expected ?? "").matchAll(/"([^"]*)"/g)].map((match) => match[1] ?? "");
}
