import * as z from "zod/mini";
import { budgetModes, cacheTtls, compressionPolicyNames, deferToolsModes, notesLocations, providerNames, statusBarModes, vendorNames } from "./config-values.js";

// zod/mini rather than zod: the same checks and inferred types for less start-up time (the CLI
// loads this module on every run). Each check carries its sentence; the file, flag or variable it
// came from is put in front of it by describeConfigIssue.
const text = () => z.string({ error: "must be a string" }).check(z.minLength(1, { error: "must not be empty" }));
const positiveInteger = () => z.int({ error: "must be a positive whole number" }).check(z.positive({ error: "must be a positive whole number" }));
const positiveNumber = () => z.number({ error: "must be a positive number" }).check(z.positive({ error: "must be a positive number" }));
const seconds = () => z.number({ error: "must be a number of seconds ≥ 0 (0 turns the limit off)" }).check(z.gte(0, { error: "must be a number of seconds ≥ 0 (0 turns the limit off)" }));
const flag = () => z.boolean({ error: "must be a boolean (true or false)" });
const names = () => z.array(z.string({ error: "must be a list of strings" }), { error: "must be a list of strings" });
const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) => z.enum(values);

/**
 * Every key a `ctxkit.config.json` (workspace) or `~/.config/ctxkit/config.json` (user) may hold,
 * with its type: the one declaration the CLI's flags, help texts, validation and `ConfigFile` type
 * come from (see config-settings.ts for the flag, variable and help of each key).
 */
export const configFileSchema = z.strictObject({
  provider: z.optional(oneOf(providerNames)),
  vendor: z.optional(oneOf(vendorNames)),
  baseURL: z.optional(text()),
  apiKey: z.optional(text()),
  model: z.optional(text()),
  modelPath: z.optional(text()),
  temperature: z.optional(z.number({ error: "must be a number from 0 to 2" }).check(z.gte(0, { error: "must be a number from 0 to 2" }), z.lte(2, { error: "must be a number from 0 to 2" }))),
  maxOutputTokens: z.optional(positiveInteger()),
  contextWindow: z.optional(positiveInteger()),
  requestTimeout: z.optional(seconds()),
  idleTimeout: z.optional(seconds()),
  cacheTtl: z.optional(oneOf(cacheTtls)),
  cacheKey: z.optional(text()),
  dataDir: z.optional(text()),
  system: z.optional(text()),
  projectInstructions: z.optional(flag()),
  logRequests: z.optional(text()),
  tools: z.optional(names()),
  allow: z.optional(names()),
  yes: z.optional(flag()),
  allowLoopbackFetch: z.optional(flag()),
  trustWorkspace: z.optional(flag()),
  externalTools: z.optional(names()),
  untrustedContentNotice: z.optional(flag()),
  maxIterations: z.optional(positiveInteger()),
  skills: z.optional(names()),
  mcpServers: z.optional(z.record(z.string(), z.unknown(), { error: 'must be an object of servers, {"name": {"command": …} | {"url": …}}' })),
  deferTools: z.optional(oneOf(deferToolsModes)),
  compression: z.optional(oneOf(compressionPolicyNames)),
  statusBar: z.optional(oneOf(statusBarModes)),
  statusBarTimestamps: z.optional(flag()),
  statusBarCounter: z.optional(flag()),
  statusBarTodo: z.optional(flag()),
  statusBarErrors: z.optional(flag()),
  statusBarState: z.optional(flag()),
  notes: z.optional(oneOf(notesLocations)),
  subAgents: z.optional(flag()),
  color: z.optional(flag()),
  budgetTokens: z.optional(positiveInteger()),
  budgetCost: z.optional(positiveNumber()),
  budgetMode: z.optional(oneOf(budgetModes)),
});

/** The contents of a config file, as the schema accepts them. */
export type ConfigFile = z.infer<typeof configFileSchema>;
export type ConfigKey = keyof ConfigFile;

export const configKeys = Object.keys(configFileSchema.shape) as ConfigKey[];
