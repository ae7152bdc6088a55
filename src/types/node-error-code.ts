import { CtxkitError } from "./ctxkit-error.js";

/**
 * The `code` of an error Node threw (`ENOENT`, `EACCES`, `ERR_WORKER_OUT_OF_MEMORY`, zlib's
 * `Z_DATA_ERROR`, a socket's `ECONNREFUSED`), or undefined for anything else. ctxkit's own errors
 * have a `code` too (a ToolError's `tool_not_found`): they are not Node's, so a check such as
 * `nodeErrorCode(error) === "ENOENT"` never takes one of them for a missing file.
 */
export function nodeErrorCode(error: unknown): string | undefined {
  if (error instanceof CtxkitError || typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** For a message: Node's code when there is one, else the error as text (a ctxkit error keeps its message). */
export function describeNodeError(error: unknown): string {
  return nodeErrorCode(error) ?? String(error);
}
