/** Node's words for the file errors a person can fix by giving another path or changing permissions. */
const reasons: Record<string, string> = {
  ENOENT: "it does not exist",
  ENOTDIR: "a part of the path is a file, not a folder",
  EEXIST: "a file is in the way where a folder should be",
  EISDIR: "it is a folder, not a file",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many symbolic links",
};

/**
 * A file-system error that reached the CLI unwrapped (Node's `ENOTDIR: not a directory, mkdir '…'`)
 * as one sentence that names the path and the flags that choose paths; `undefined` for any other
 * error. Data directories and log files come from flags, variables or config files, so the fix is
 * usually another value for one of those.
 */
export function describeSystemError(error: unknown): string | undefined {
  const { code, path, syscall } = (error ?? {}) as { code?: unknown; path?: unknown; syscall?: unknown };
  if (typeof code !== "string" || typeof path !== "string" || !Object.hasOwn(reasons, code)) return undefined;
  const action = typeof syscall === "string" ? `cannot ${syscall} ` : "cannot use ";
  return (
    `${action}${path}: ${reasons[code]} (${code}). ` +
    "Check the paths this command was given (--workspace, --data-dir, --log-requests, or the same keys in ctxkit.config.json) and that you may write there."
  );
}
