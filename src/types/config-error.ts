import { CtxkitError } from "./ctxkit-error.js";
import type { ConfigErrorCode } from "./error-codes.js";

/** An option, setting, file or installed package the caller controls is wrong; thrown before any I/O. */
export class ConfigError extends CtxkitError<ConfigErrorCode> {
  constructor(code: ConfigErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
    this.name = "ConfigError";
  }
}
