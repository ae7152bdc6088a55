import type { CtxkitErrorCode } from "./error-codes.js";

/**
 * The base of every ctxkit error: a stable `code` a program can switch on, a message that says how
 * to fix the problem, and whether retrying the same call may succeed. Each family (`ConfigError`,
 * `ProviderError`, `SessionError`, …) narrows `code` to its own union, so `instanceof` and a switch
 * on `code` agree.
 */
export class CtxkitError<Code extends CtxkitErrorCode = CtxkitErrorCode> extends Error {
  readonly code: Code;
  readonly isRetryable: boolean;

  constructor(code: Code, message: string, options: { cause?: unknown; isRetryable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CtxkitError";
    this.code = code;
    this.isRetryable = options.isRetryable ?? false;
  }

  /** A JSON-safe form for events and session files. */
  toJSON(): { name: string; code: Code; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}

export function isCtxkitError(value: unknown): value is CtxkitError {
  return value instanceof CtxkitError;
}

/** Wraps anything thrown into a CtxkitError, keeping the original as the cause. */
export function toCtxkitError<Code extends CtxkitErrorCode>(value: unknown, code: Code, prefix: string): CtxkitError {
  if (value instanceof CtxkitError) return value;
  const detail = value instanceof Error ? value.message : String(value);
  return new CtxkitError(code, `${prefix}: ${detail}`, { cause: value });
}
