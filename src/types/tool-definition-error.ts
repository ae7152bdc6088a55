import { CtxkitError } from "./ctxkit-error.js";
import type { ToolDefinitionErrorCode } from "./error-codes.js";

/** A tool's name or parameter schema is one no provider accepts; thrown when the agent is created. */
export class ToolDefinitionError extends CtxkitError<ToolDefinitionErrorCode> {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("tool_definition_invalid", message, options);
    this.name = "ToolDefinitionError";
  }
}
