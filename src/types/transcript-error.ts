import { CtxkitError } from "./ctxkit-error.js";
import type { TranscriptErrorCode } from "./error-codes.js";

/** A recorded transcript (or its tools file) could not be read or is not in the expected format. */
export class TranscriptError extends CtxkitError<TranscriptErrorCode> {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("transcript_invalid", message, options);
    this.name = "TranscriptError";
  }
}
