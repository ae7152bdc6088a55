/**
 * Typed errors. Every error has a stable `code` a program can switch on and a message that says how
 * to fix the problem. Providers never throw these after a stream started: they arrive as a terminal
 * `error` event instead.
 */
export type CtxkitErrorCode =
  | "config_invalid"
  | "api_key_missing"
  | "tool_definition_invalid"
  | "provider_http_error"
  | "provider_connection_error"
  | "provider_response_invalid"
  | "context_overflow"
  | "aborted"
  | "session_corrupt"
  | "session_version_unsupported"
  | "session_not_found"
  | "session_prefix_mismatch"
  | "prefix_break"
  | "path_outside_workspace"
  | "transcript_invalid"
  | "compaction_failed"
  | "summarizer_failed"
  | "usage_invalid";

export class CtxkitError extends Error {
  readonly code: CtxkitErrorCode;
  readonly isRetryable: boolean;

  constructor(code: CtxkitErrorCode, message: string, options: { cause?: unknown; isRetryable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CtxkitError";
    this.code = code;
    this.isRetryable = options.isRetryable ?? false;
  }

  /** A JSON-safe form for events and session files. */
  toJSON(): { name: string; code: CtxkitErrorCode; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/** An HTTP error from a provider, with the status and the body the vendor sent. */
export class ProviderHttpError extends CtxkitError {
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
export class ContextOverflowError extends CtxkitError {
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

export function isCtxkitError(value: unknown): value is CtxkitError {
  return value instanceof CtxkitError;
}

/** Wraps anything thrown into a CtxkitError, keeping the original as the cause. */
export function toCtxkitError(value: unknown, code: CtxkitErrorCode, prefix: string): CtxkitError {
  if (value instanceof CtxkitError) return value;
  const detail = value instanceof Error ? value.message : String(value);
  return new CtxkitError(code, `${prefix}: ${detail}`, { cause: value });
}
