import { describe, expect, it } from "vitest";
import { toCliMessage } from "../cli/cli-error-message.js";
import { CtxkitError } from "../types/index.js";
import { checkBudgetPricing } from "./create-budget-from-config.js";
import { createProviderFromConfig } from "./create-provider-from-config.js";
import { resolveAgentConfig } from "./resolve-agent-config.js";
import { compressionPolicyNames } from "./config-values.js";
import { systemPromptFromConfig } from "./system-prompt-from-config.js";

/** The error createProviderFromConfig throws for these settings (a config file's keys). */
function refusal(settings: Parameters<typeof resolveAgentConfig>[0]): CtxkitError {
  try {
    createProviderFromConfig(resolveAgentConfig(settings, "/tmp"));
  } catch (error) {
    if (error instanceof CtxkitError) return error;
    throw error;
  }
  throw new Error("the settings were accepted");
}

// A library user sets keys, not flags: the library's advice names the key, and the CLI turns it
// into the flag that sets it.
describe("createProviderFromConfig's errors speak of settings keys", () => {
  it("names compactThreshold (not --compact-threshold) for a threshold under Anthropic's minimum", () => {
    const error = refusal({ provider: "anthropic", model: "claude-opus-4-6", apiKey: "k", compactThreshold: 1000 });
    expect(error.code).toBe("option_invalid");
    expect(error.message).toBe('compactThreshold must be at least 50000 with provider "anthropic" (the API\'s lowest compaction trigger), got 1000.');
    expect(toCliMessage(error)).toBe("--compact-threshold must be at least 50000 with --provider anthropic (the API's lowest compaction trigger), got 1000.");
  });

  it("names modelPath (not --model-path) for the llama provider without a model file", () => {
    const error = refusal({ provider: "llama" });
    expect(error.message).toBe("The llama provider needs a model file. Set modelPath to a .gguf file.");
    expect(toCliMessage(error)).toBe("The llama provider needs a model file. Pass --model-path <file.gguf> or set CTXKIT_MODEL_PATH.");
  });

  it("names model (not --model) when no model is set", () => {
    const error = refusal({});
    expect(error.code).toBe("model_missing");
    expect(error.message).toBe('No model is set. Set model in the settings (e.g. { model: "qwen3:8b" } for Ollama), or add "model" to ctxkit.config.json.');
    expect(toCliMessage(error)).toBe('No model is set. Pass --model <name> (e.g. --model qwen3:8b for Ollama), set CTXKIT_MODEL, or add "model" to ctxkit.config.json.');
  });

  it("names budgetCost and budgetTokens (not the flags) for a cost budget without prices", () => {
    let error: CtxkitError | undefined;
    try {
      checkBudgetPricing({ costUsd: 1, mode: "hard" }, "unpriced-model");
    } catch (thrown) {
      if (thrown instanceof CtxkitError) error = thrown;
    }
    // model_unpriced as everywhere a model has no prices (it was usage_invalid, the CLI's code for a command line).
    expect(error?.code).toBe("model_unpriced");
    expect(error?.message).toBe("budgetCost needs prices for the model 'unpriced-model', which the pricing catalog does not list. Use budgetTokens instead, or a model the catalog lists (findModelPricing(model) finds its prices).");
    expect(toCliMessage(error!)).toBe("--budget-cost needs prices for the model 'unpriced-model', which the pricing catalog does not list, and no flag sets a model's prices. Use --budget-tokens instead, or a --model the catalog lists (e.g. gpt-4.1).");
  });

  it("names the system setting (not --system) for an @file it cannot read, as option_invalid", async () => {
    const error = await systemPromptFromConfig(resolveAgentConfig({ model: "m", system: "@missing-prompt.md" }, "/tmp"), undefined, undefined).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CtxkitError);
    expect((error as CtxkitError).code).toBe("option_invalid");
    expect((error as CtxkitError).message).toMatch(/^The `system` setting @\/tmp\/missing-prompt\.md: cannot read \/tmp\/missing-prompt\.md \(ENOENT[^)]*\)\. Give "@" and a readable file's path, or the prompt's text itself\.$/);
    expect((error as CtxkitError).message).not.toContain("--system");
    expect(toCliMessage(error as CtxkitError)).toMatch(/^--system @\/tmp\/missing-prompt\.md: cannot read \/tmp\/missing-prompt\.md \(ENOENT[^)]*\)\. Give @ and a readable file's path, or the prompt's text itself\.$/);
  });

  it("names the nearest key for an unknown one, as the CLI does for a file (it said only 'unknown key modle')", () => {
    expect(() => resolveAgentConfig({ modle: "m" } as never, "/tmp")).toThrow(
      "The agent's settings: unknown key 'modle' (did you mean 'model'?). Use the keys and values of ctxkit.config.json (docs/configuration.md).",
    );
    expect(() => resolveAgentConfig({ maxIteration: 3, zzzzzz: 1 } as never, "/tmp")).toThrow("unknown key 'maxIteration' (did you mean 'maxIterations'?), unknown key 'zzzzzz'. Use the keys");
  });

  it("lists the values a choice setting takes (the library's message said only 'a value it does not take')", () => {
    expect(() => resolveAgentConfig({ compression: "zip" as never }, "/tmp")).toThrow(
      `The agent's settings ('compression'): a value it does not take; use one of: ${compressionPolicyNames.join(", ")}. Use the keys and values of ctxkit.config.json (docs/configuration.md).`,
    );
  });
});
