import { CtxkitError } from "./ctxkit-error.js";
import type { UsageErrorCode } from "./error-codes.js";

/** The API was used in a way it does not support; the message says which call to make instead. */
export class UsageError extends CtxkitError<UsageErrorCode> {
  constructor(code: UsageErrorCode, message: string) {
    super(code, message);
    this.name = "UsageError";
  }
}
