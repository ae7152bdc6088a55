import { ConfigError } from "../types/index.js";
import { reasoningEffortsByProvider, type ProviderName } from "./config-values.js";

type EffortProvider = keyof typeof reasoningEffortsByProvider;
/** One provider's effort type: `EffortOf<"anthropic">` is "low" | … | "max". */
export type EffortOf<Provider extends EffortProvider> = (typeof reasoningEffortsByProvider)[Provider][number];

/** The efforts `provider` sends, or undefined when it sends none (openai-compatible, llama). */
export function providerReasoningEfforts(provider: ProviderName): readonly string[] | undefined {
  return Object.hasOwn(reasoningEffortsByProvider, provider) ? reasoningEffortsByProvider[provider as EffortProvider] : undefined;
}

/**
 * `effort` as one of `provider`'s own efforts. The config schema takes every provider's (it does not
 * know the provider), so "max" passes it and is refused here for openai-responses, "minimal" for anthropic.
 */
export function checkedReasoningEffort<Provider extends EffortProvider>(provider: Provider, effort: string): EffortOf<Provider> {
  const efforts: readonly string[] = reasoningEffortsByProvider[provider];
  if (efforts.includes(effort)) return effort as EffortOf<Provider>;
  throw new ConfigError("option_invalid", `reasoningEffort ${JSON.stringify(effort)} is not an effort of provider "${provider}". Use one of: ${efforts.join(", ")}.`);
}
