import { compressionPolicyNames } from "../context/compression/compression-policy-names.js";
import { anthropicEfforts } from "../providers/anthropic/anthropic-efforts.js";
import { reasoningEfforts as responsesEfforts } from "../providers/openai-responses/reasoning-efforts.js";

/**
 * The values a setting may take, in one place: the config schema validates with them and the
 * `--help` texts list them. No validator here, so that printing help loads nothing heavy.
 */
export const providerNames = ["openai-compatible", "openai-responses", "anthropic", "llama"] as const;
export const vendorNames = ["openai", "vllm", "ollama", "llamacpp", "deepseek", "kimi", "glm", "openrouter"] as const;
export const cacheTtls = ["5m", "1h"] as const;
/** OpenAI's `prompt_cache_retention` (Responses API): the default in-memory cache, or 24 hours. */
export const cacheRetentions = ["in-memory", "24h"] as const;
/**
 * The efforts of the providers that send one, each its own list: OpenAI's `reasoning.effort`
 * (Responses API) and Anthropic's `output_config.effort`. A provider not named here sends none.
 */
export const reasoningEffortsByProvider = { "openai-responses": responsesEfforts, anthropic: anthropicEfforts } as const;
/** Every provider's efforts in one list, for the schema (which does not know the provider); each provider's is checked after. */
export const reasoningEfforts = [...new Set<string>([...responsesEfforts, ...anthropicEfforts])] as unknown as readonly [ReasoningEffort, ...ReasoningEffort[]];
export const reasoningRoundTripModes = ["send", "tool-calls", "strip"] as const;
export const statusBarModes = ["auto", "replace", "append", "off"] as const;
export const deferToolsModes = ["auto", "all", "off"] as const;
export const budgetModes = ["hard", "soft", "approval"] as const;
export const notesLocations = ["session", "workspace", "off"] as const;
export { compressionPolicyNames };

export type ProviderName = (typeof providerNames)[number];
export type VendorName = (typeof vendorNames)[number];
export type CacheTtl = (typeof cacheTtls)[number];
export type CacheRetention = (typeof cacheRetentions)[number];
export type ReasoningEffort = (typeof responsesEfforts)[number] | (typeof anthropicEfforts)[number];
export type ReasoningRoundTripMode = (typeof reasoningRoundTripModes)[number];
export type StatusBarMode = (typeof statusBarModes)[number];
export type NotesLocation = (typeof notesLocations)[number];

/** The built-in tools offered when none are named: all but `bash`. */
export const defaultToolNames = ["read_file", "write_file", "edit_file", "list_dir", "glob", "grep", "web_fetch"];
/** Every built-in tool a `tools` list may name (`bash` only when named). */
export const knownToolNames = [...defaultToolNames, "bash"];

/** Where the notes tools keep their file when nothing chooses: the session's data folder (the README's promise). */
export const defaultNotesLocation: NotesLocation = "session";
export const defaultMaxIterations = 50;
export const defaultCompression = "ctxkit" as const;

/** The value of every setting that has one when nothing sets it (the CLI shows them as `default`). */
export const configDefaults = {
  provider: "openai-compatible",
  vendor: "openai",
  maxIterations: defaultMaxIterations,
  compression: defaultCompression,
  dataDir: ".ctxkit",
  cacheTtl: "5m",
  statusBar: "auto",
  statusBarTimestamps: true,
  statusBarCounter: true,
  statusBarTodo: true,
  statusBarErrors: true,
  statusBarState: true,
  notes: defaultNotesLocation,
  yes: false,
  subAgents: true,
  allowLoopbackFetch: false,
  trustWorkspace: false,
  untrustedContentNotice: true,
  projectInstructions: true,
} as const;

/** A `tools` list as written: `default` stands for the standard tool set, `all` adds `bash`. */
export function expandToolList(names: readonly string[], defaults: readonly string[] = defaultToolNames): string[] {
  const expanded = names.flatMap((name) => {
    const trimmed = name.trim();
    if (trimmed === "default") return defaults;
    if (trimmed === "all") return [...defaults, "bash"];
    return trimmed === "" ? [] : [trimmed];
  });
  return [...new Set(expanded)];
}
