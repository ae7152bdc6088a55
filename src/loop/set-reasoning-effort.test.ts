import { describe, expect, it } from "vitest";
import { reasoningEfforts as configEfforts, reasoningEffortsByProvider } from "../config/config-values.js";
import { createAnthropic } from "../providers/anthropic/index.js";
import { createOpenAIResponses } from "../providers/openai-responses/index.js";
import { reasoningEfforts } from "../providers/openai-responses/reasoning-efforts.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { ConfigError } from "../types/index.js";
import { createAgent } from "./create-agent.js";

describe("agent.setReasoningEffort", () => {
  const agent = () => createAgent({ provider: createOpenAIResponses({ model: "gpt-5.1-codex-max", apiKey: "k" }), system: "s", tools: [] });

  it("refuses an effort the provider does not take when it is set, not at the next call", () => {
    let thrown: unknown;
    try {
      agent().setReasoningEffort("maximum");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown).toMatchObject({ code: "option_invalid", message: `setReasoningEffort: provider 'openai-responses' takes the efforts none, minimal, low, medium, high, xhigh, got "maximum".` });
  });

  it("takes each listed effort, and undefined (back to the provider's)", () => {
    const configured = agent();
    for (const effort of reasoningEfforts) expect(() => configured.setReasoningEffort(effort)).not.toThrow();
    expect(() => configured.setReasoningEffort(undefined)).not.toThrow();
  });

  it("leaves a provider without a list of efforts alone", () => {
    expect(() => createAgent({ provider: createScriptedProvider({ turns: [] }), system: "s", tools: [] }).setReasoningEffort("anything")).not.toThrow();
  });

  it("refuses with Anthropic an effort of OpenAI's, naming Anthropic's", () => {
    const anthropic = createAgent({ provider: createAnthropic({ model: "claude-opus-4-6", apiKey: "k" }), system: "s", tools: [] });
    expect(() => anthropic.setReasoningEffort("minimal")).toThrowError(`setReasoningEffort: provider 'anthropic' takes the efforts low, medium, high, xhigh, max, got "minimal".`);
    expect(() => anthropic.setReasoningEffort("max")).not.toThrow();
  });

  it("has one list of efforts per provider: the config's are the providers' own, and its schema takes them all", () => {
    expect(reasoningEffortsByProvider["openai-responses"]).toBe(reasoningEfforts);
    expect(reasoningEffortsByProvider.anthropic).toBe(createAnthropic({ model: "claude-opus-4-6", apiKey: "k" }).reasoningEfforts);
    expect(configEfforts).toEqual(["none", "minimal", "low", "medium", "high", "xhigh", "max"]);
  });
});
