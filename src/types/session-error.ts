import { CtxkitError } from "./ctxkit-error.js";
import type { SessionErrorCode } from "./error-codes.js";

/** A session file, the blob store or a stored request could not be read or written. */
export class SessionError extends CtxkitError<SessionErrorCode> {
  constructor(code: SessionErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
    this.name = "SessionError";
  }
}
