import { describe, expect, it } from "vitest";
import { ConfigError } from "../types/index.js";
import { providerSettingsFromConfig } from "./provider-settings-from-config.js";
import { providerReasoningEfforts } from "./provider-reasoning-effort.js";
import { resolveAgentConfig } from "./resolve-agent-config.js";
import type { ConfigFile } from "./config-schema.js";

const settingsOf = (file: ConfigFile) => providerSettingsFromConfig(resolveAgentConfig({ model: "m", apiKey: "k", ...file }, "/w"));

describe("a config's reasoningEffort, per provider", () => {
  it("reaches Anthropic as its effort and the Responses API as reasoning.effort", () => {
    expect(settingsOf({ provider: "anthropic", reasoningEffort: "max" }).settings).toMatchObject({ effort: "max" });
    expect(settingsOf({ provider: "openai-responses", reasoningEffort: "minimal" }).settings).toMatchObject({ reasoning: { effort: "minimal" } });
  });

  it.each([
    ["anthropic", "minimal", "low, medium, high, xhigh, max"],
    ["openai-responses", "max", "none, minimal, low, medium, high, xhigh"],
  ] as const)("refuses with provider %s another provider's effort (%s), naming its own", (provider, effort, values) => {
    expect(() => settingsOf({ provider, reasoningEffort: effort })).toThrowError(ConfigError);
    expect(() => settingsOf({ provider, reasoningEffort: effort })).toThrowError(`reasoningEffort "${effort}" is not an effort of provider "${provider}". Use one of: ${values}.`);
  });

  it("knows no efforts of a provider that sends none", () => {
    expect(providerReasoningEfforts("openai-compatible")).toBeUndefined();
    expect(providerReasoningEfforts("llama")).toBeUndefined();
    expect(() => settingsOf({ provider: "openai-compatible", reasoningEffort: "max" })).not.toThrow();
  });
});
