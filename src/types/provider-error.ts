import { CtxkitError } from "./ctxkit-error.js";
import type { ProviderErrorCode } from "./error-codes.js";

/** A provider failed after the request was built. Streams deliver it as a terminal `error` event. */
export class ProviderError extends CtxkitError<ProviderErrorCode> {
  constructor(code: ProviderErrorCode, message: string, options: { cause?: unknown; isRetryable?: boolean } = {}) {
    super(code, message, options);
    this.name = "ProviderError";
  }
}

/** An HTTP error from a provider, with the status and the body the vendor sent. */
export class ProviderHttpError extends ProviderError {
  readonly status: number;
  readonly responseBody: string;
  constructor(status: number, responseBody: string, message: string, isRetryable: boolean) {
    super("provider_http_error", message, { isRetryable });
    this.name = "ProviderHttpError";
    this.status = status;
    this.responseBody = responseBody;
  }
}

/**
 * The prompt did not fit the model's context window. The vendor's exact words are in `vendorMessage`
 * (each vendor phrases it differently; see `isContextOverflowMessage`).
 */
export class ContextOverflowError extends ProviderError {
  readonly vendorMessage: string;
  constructor(vendorMessage: string, cause?: unknown) {
    super(
      "context_overflow",
      `The request exceeded the model's context window (vendor said: ${vendorMessage}). ` +
        "Compress the context (compaction, tool-result clearing) or use a model with a larger window.",
      { cause },
    );
    this.name = "ContextOverflowError";
    this.vendorMessage = vendorMessage;
  }
}
