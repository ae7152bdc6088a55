import { pickCommonOptions } from "./cli-options.js";
import { agentOptionsHelpFor } from "./agent-options-help.js";

/**
 * What a benchmark that talks to a live model takes from `ctxkit run`'s flags: the settings that
 * choose the model and reach it (what createProviderFromConfig reads: the settings' Model group but
 * the temperature and output length, which the benchmark fixes itself), and the workspace whose
 * ctxkit.config.json may hold them. A slow local model needs --request-timeout here as in a run.
 */
const liveModelFlags = [
  "provider", "vendor", "model", "base-url", "api-key", "model-path",
  "request-timeout", "idle-timeout", "reasoning-effort", "reasoning-round-trip",
  "cache-ttl", "cache-key", "cache-retention", "context-window", "compact-threshold", "workspace",
] as const;

export const liveModelOptions = pickCommonOptions(...liveModelFlags);

/** Their --help section, in `ctxkit run --help`'s words (from the settings' table). */
export function liveModelOptionsHelp(): string {
  return agentOptionsHelpFor(liveModelFlags);
}
