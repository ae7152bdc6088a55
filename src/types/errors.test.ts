import { describe, expect, it } from "vitest";
import {
  ConfigError,
  ContextOverflowError,
  CtxkitError,
  isCtxkitError,
  ProviderError,
  ProviderHttpError,
  SessionError,
  ToolDefinitionError,
  toCtxkitError,
  UsageError,
} from "./errors.js";
import type { ToolErrorKind } from "./tool.js";
import { ToolError } from "./tool-error.js";

describe("typed error families", () => {
  it("are CtxkitErrors with their family's name and code", () => {
    const errors = [
      new ConfigError("model_missing", "Pass a model."),
      new SessionError("session_not_found", "No such session."),
      new ToolDefinitionError("Two tools are named 'x'."),
      new UsageError("agent_busy", "Await the current run."),
      new ProviderHttpError(503, "overloaded", "503 from the vendor", true),
      new ContextOverflowError("prompt is too long"),
    ];
    expect(errors.every(isCtxkitError)).toBe(true);
    expect(errors.map((error) => [error.name, error.code])).toEqual([
      ["ConfigError", "model_missing"],
      ["SessionError", "session_not_found"],
      ["ToolDefinitionError", "tool_definition_invalid"],
      ["UsageError", "agent_busy"],
      ["ProviderHttpError", "provider_http_error"],
      ["ContextOverflowError", "context_overflow"],
    ]);
    expect(errors[4]).toBeInstanceOf(ProviderError);
    expect(errors[5]).toBeInstanceOf(ProviderError);
    expect(errors[4]!.isRetryable).toBe(true);
  });

  it("serialise to name, code and message only", () => {
    const error = new ConfigError("dependency_missing", "Run npm install js-tiktoken.", { cause: new Error("inner") });
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: "ConfigError", code: "dependency_missing", message: "Run npm install js-tiktoken." });
  });

  it("wrap foreign throws with a code and keep typed ones as they are", () => {
    const typed = new SessionError("session_corrupt", "Line 3 is not JSON.");
    expect(toCtxkitError(typed, "provider_response_invalid", "ignored")).toBe(typed);
    const wrapped = toCtxkitError(new Error("socket hang up"), "provider_connection_error", "Calling the model failed");
    expect(wrapped).toBeInstanceOf(CtxkitError);
    expect(wrapped).toMatchObject({ code: "provider_connection_error", message: "Calling the model failed: socket hang up" });
  });

  it("give a ToolError a code of its own, `tool_` and its kind, and keep the kind", () => {
    const kinds: ToolErrorKind[] = ["not_found", "permission", "timeout", "invalid_arguments", "unknown_tool", "rejected", "failed"];
    const errors = kinds.map((kind) => new ToolError(kind, `A ${kind} failure.`));
    expect(errors.map((error) => [error.kind, error.code])).toEqual(kinds.map((kind) => [kind, `tool_${kind}`]));
    expect(errors.every(isCtxkitError)).toBe(true);
    expect(errors[0]).toMatchObject({ name: "ToolError", message: "A not_found failure.", isRetryable: false });
    expect(JSON.parse(JSON.stringify(errors[0]))).toEqual({ name: "ToolError", code: "tool_not_found", kind: "not_found", message: "A not_found failure." });
  });
});
