import { CtxkitError } from "./ctxkit-error.js";
import type { ToolErrorCode } from "./error-codes.js";
import type { ToolErrorKind } from "./tool.js";

/**
 * Thrown by tools to report a failure of a known kind (anything else counts as "failed"). The loop
 * turns it into an error tool result for the model (`Error (<kind>): <message>`). Like every ctxkit
 * error it has a `code`, `tool_` and its kind (`tool_not_found`, `tool_permission`, …): lower case,
 * so it can never equal a Node error's code (`ENOENT`, `EACCES`, `ERR_…`), and the tools' checks of
 * those (`nodeErrorCode`) never take a ToolError for a file system error, or one for a ToolError.
 */
export class ToolError extends CtxkitError<ToolErrorCode> {
  readonly kind: ToolErrorKind;
  constructor(kind: ToolErrorKind, message: string, options: { cause?: unknown } = {}) {
    super(toolErrorCodeOf(kind), message, options);
    this.name = "ToolError";
    this.kind = kind;
  }

  /** A JSON-safe form, with the kind (what the model is told) next to the code. */
  override toJSON(): { name: string; code: ToolErrorCode; kind: ToolErrorKind; message: string } {
    return { name: this.name, code: this.code, kind: this.kind, message: this.message };
  }
}

/** The code of a ToolError of this kind: `tool_` and the kind. */
export function toolErrorCodeOf(kind: ToolErrorKind): ToolErrorCode {
  return `tool_${kind}`;
}
