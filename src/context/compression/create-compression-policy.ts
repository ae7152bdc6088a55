import type { ContextPolicy } from "../context-policy.js";
import { ConfigError } from "../../types/index.js";
import { attachBlobs } from "./attach-blobs.js";
import type { CompressionOptions } from "./compression-options.js";
import { resolveCompressionSettings, type CompressionSettings } from "./compression-options.js";
import { createRecallTool, type RecallToolOptions } from "./recall-tool.js";
import type { CompressionStats } from "./compression-stats.js";
import { createLayeredPolicy } from "./layered-policy.js";
import { createCombinedPolicy } from "./strategies/combined-policy.js";
import { createContextAwarePolicy } from "./strategies/context-aware-policy.js";
import { createIndividualPolicy } from "./strategies/individual-policy.js";
import { createNonePolicy } from "./strategies/none-policy.js";
import { createWindowedPolicy } from "./strategies/windowed-policy.js";
import { compressionPolicyNames, type CompressionPolicyName } from "./compression-policy-names.js";

export { compressionPolicyNames, type CompressionPolicyName };

export type CompressionPolicy = ContextPolicy & { stats(): CompressionStats };

export function isCompressionPolicyName(value: string): value is CompressionPolicyName {
  return (compressionPolicyNames as readonly string[]).includes(value);
}

export interface CreateCompressionOptions extends CompressionOptions {
  /** Which policy (default `ctxkit`, the layered default). */
  policy?: CompressionPolicyName;
  /** The `recall` tool this policy adds to the agent (default on; `false` adds none). */
  recall?: false | Omit<RecallToolOptions, "blobStore">;
}

/**
 * Context compression as a context policy: `createAgent({ ..., context: [createCompression({ contextWindow: 128_000 })] })`.
 * It runs before other policies (order -100), adds the `recall` tool, and hands the loop the blobs
 * its previews and stubs point to, which the agent stores in its `blobStore`.
 */
export function createCompression(options: CreateCompressionOptions): CompressionPolicy {
  const name = options.policy ?? "ctxkit";
  const policy = createCompressionPolicy(name, options);
  if (name === "none" || options.recall === false) return policy;
  return { ...policy, tools: [createRecallTool(options.recall ?? {})] };
}

/** A fresh policy without tools (policies keep per-session state: statistics, the circuit breaker, what was sent). */
export function createCompressionPolicy(name: CompressionPolicyName, options: CompressionOptions): CompressionPolicy {
  // The seed's strategy keeps the seed's threshold (80%); `ctxkit`'s default moved to 90%.
  const settings = resolveCompressionSettings(name === "windowed" ? { ...options, trigger: options.trigger ?? 0.8 } : options);
  return { ...attachBlobs(selectPolicy(name, settings), settings.blobs), order: -100 };
}

function selectPolicy(name: CompressionPolicyName, settings: CompressionSettings): CompressionPolicy {
  switch (name) {
    case "none":
      return createNonePolicy();
    case "individual":
      return createIndividualPolicy(settings);
    case "combined":
      return createCombinedPolicy(settings);
    case "context-aware":
      return createContextAwarePolicy(settings, { citations: false });
    case "context-aware-citations":
      return createContextAwarePolicy(settings, { citations: true });
    case "windowed":
      return createWindowedPolicy(settings);
    case "ctxkit":
      return createLayeredPolicy(settings);
  }
  throw new ConfigError("option_invalid", `Unknown compression policy '${String(name)}'. Use one of: ${compressionPolicyNames.join(", ")}.`);
}
