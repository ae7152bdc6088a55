import { providerReasoningEfforts } from "../../config/provider-reasoning-effort.js";
import type { ProviderName } from "../../config/config-values.js";
import { ConfigError } from "../../types/index.js";
import type { ResolvedSetting } from "./resolve-settings.js";

/**
 * Refuses a reasoning effort the chosen provider does not take, naming where it was set and the
 * provider's own values: the schema takes every provider's efforts, so `--reasoning-effort minimal`
 * (OpenAI's) passes it and is refused here with `--provider anthropic`. A bad flag is a usage error
 * (exit 2); a variable or a file is a setting to fix. A provider that sends no effort is left to the
 * "ignores it" notice.
 */
export function checkReasoningEffort(provider: ProviderName, setting: ResolvedSetting | undefined): void {
  const efforts = providerReasoningEfforts(provider);
  if (setting === undefined || efforts === undefined || Array.isArray(setting.origin)) return;
  const effort = String(setting.value);
  if (efforts.includes(effort)) return;
  const { flag, variable, file } = setting.origin;
  const where = flag ?? (variable ? `${variable}:` : `${file ?? "the config"}: 'reasoningEffort'`);
  throw new ConfigError(
    flag ? "usage_invalid" : "option_invalid",
    `${where} '${effort}' is not a reasoning effort of --provider ${provider}. Use one of: ${efforts.join(", ")}.`,
  );
}
