import type { ToolErrorKind } from "./tool.js";

/** Thrown by tools to report a failure of a known kind (anything else counts as "failed"). */
export class ToolError extends Error {
  readonly kind: ToolErrorKind;
  constructor(kind: ToolErrorKind, message: string) {
    super(message);
    this.name = "ToolError";
    this.kind = kind;
  }
}
