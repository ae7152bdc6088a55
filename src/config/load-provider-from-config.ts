import type { Provider } from "../providers/provider.js";
import type { AgentConfig } from "./agent-config.js";
import { providerSettingsFromConfig, type ProviderFromConfigOptions } from "./provider-settings-from-config.js";

/**
 * The provider a config names, importing only that provider's modules: a run that talks to an
 * OpenAI-compatible server does not load (parse, compile) the Anthropic, Responses or llama code.
 */
export async function loadProviderFromConfig(config: AgentConfig, options: ProviderFromConfigOptions = {}): Promise<Provider> {
  const choice = providerSettingsFromConfig(config, options);
  switch (choice.provider) {
    case "llama":
      return (await import("../providers/llama/create-llama.js")).createLlama(choice.settings);
    case "openai-responses":
      return (await import("../providers/openai-responses/create-openai-responses.js")).createOpenAIResponses(choice.settings);
    case "anthropic":
      return (await import("../providers/anthropic/create-anthropic.js")).createAnthropic(choice.settings);
    case "openai-compatible":
      return (await import("../providers/openai-compatible/create-openai-compatible.js")).createOpenAICompatible(choice.settings);
  }
}
