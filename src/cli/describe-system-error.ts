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

/** Why a file call failed, for a person; `undefined` for a code a person cannot fix by choosing a path. */
export function describeFileErrorCode(code: string, syscall: string | undefined): string | undefined {
  if (!Object.hasOwn(reasons, code)) return undefined;
  // EEXIST is "a file in the way" only for mkdir; an exclusive open, a link or a symlink found the path taken.
  if (code === "EEXIST" && syscall !== "mkdir") return "it already exists";
  // mkdir's ENOENT when the folder above exists: a file system that holds no new folders (/proc).
  if (code === "ENOENT" && syscall === "mkdir") return "no folder can be made there";
  return reasons[code];
}

/**
 * A file-system error that reached the CLI unwrapped (Node's `ENOTDIR: not a directory, mkdir '…'`)
 * as one sentence that names the path and the flags that choose paths; `undefined` for any other
 * error. Data directories and log files come from flags, variables or config files, so the fix is
 * usually another value for one of those.
 */
export function describeSystemError(error: unknown): string | undefined {
  const { code, path, dest, syscall } = (error ?? {}) as { code?: unknown; path?: unknown; dest?: unknown; syscall?: unknown };
  if (typeof code !== "string" || typeof path !== "string") return undefined;
  const reason = describeFileErrorCode(code, typeof syscall === "string" ? syscall : undefined);
  if (reason === undefined) return undefined;
  const action = typeof syscall === "string" ? `cannot ${syscall} ` : "cannot use ";
  // rename, link, symlink and copyfile name two paths; the second is often the one in the way.
  const paths = typeof dest === "string" ? `${path} -> ${dest}` : path;
  return (
    `${action}${paths}: ${reason} (${code}). ` +
    "Check the paths this command was given (--workspace, --data-dir, --log-requests, or the same keys in ctxkit.config.json) and that you may write there."
  );
}
