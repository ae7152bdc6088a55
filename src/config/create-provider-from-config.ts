import { createAnthropic } from "../providers/anthropic/index.js";
import { createLlama } from "../providers/llama/index.js";
import { createOpenAICompatible } from "../providers/openai-compatible/index.js";
import { createOpenAIResponses } from "../providers/openai-responses/index.js";
import type { Provider } from "../providers/provider.js";
import type { AgentConfig } from "./agent-config.js";
import { providerSettingsFromConfig, type ProviderFromConfigOptions } from "./provider-settings-from-config.js";

/** The provider a config names, created at once (this module imports every provider; `loadProviderFromConfig`, in a module of its own, imports one). */
export function createProviderFromConfig(config: AgentConfig, options: ProviderFromConfigOptions = {}): Provider {
  const choice = providerSettingsFromConfig(config, options);
  switch (choice.provider) {
    case "llama":
      return createLlama(choice.settings);
    case "openai-responses":
      return createOpenAIResponses(choice.settings);
    case "anthropic":
      return createAnthropic(choice.settings);
    case "openai-compatible":
      return createOpenAICompatible(choice.settings);
  }
}
