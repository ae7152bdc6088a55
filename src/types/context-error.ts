import { CtxkitError } from "./ctxkit-error.js";
import type { ContextErrorCode } from "./error-codes.js";

/** A context policy (the prefix guard, compression, a `prepareContext`) failed or returned an invalid edit. */
export class ContextError extends CtxkitError<ContextErrorCode> {
  constructor(code: ContextErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
    this.name = "ContextError";
  }
}
