import { describe, expect, it } from "vitest";
import { toCliMessage } from "../cli/cli-error-message.js";
import { CtxkitError } from "../types/index.js";
import { createProviderFromConfig } from "./create-provider-from-config.js";
import { resolveAgentConfig } from "./resolve-agent-config.js";

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
});
