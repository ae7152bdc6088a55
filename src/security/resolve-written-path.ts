import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * Where a path a tool will write really points: resolved against the workspace, `.`/`..` and
 * repeated separators folded, and the longest existing ancestor replaced by its real path (symlinks
 * followed), so `./ctxkit.config.json`, `sub/../ctxkit.config.json` and a link to the folder all
 * name the same file. The arguments are parsed JSON already: `\u006a` is a plain `j` here.
 */
export function resolveWrittenPath(path: string, workspace: string): string {
  let existing = resolve(workspace, path);
  const rest: string[] = [];
  // The file itself may be a link to a protected file: follow it too when it exists.
  while (true) {
    try {
      return join(realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return resolve(workspace, path);
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

/** The real path of a protected place (it may not exist yet: its nearest existing ancestor is resolved). */
export function realPlace(path: string): string {
  return resolveWrittenPath(path, "/");
}

/**
 * Whether `path` is `place` or lies inside it, compared without case (a case-insensitive file
 * system, as on macOS and Windows, opens `CTXKIT.CONFIG.JSON` as the config file).
 */
export function isSameOrInside(path: string, place: string): boolean {
  const rest = relative(place.toLowerCase(), path.toLowerCase());
  return rest === "" || (!rest.startsWith(`..${sep}`) && rest !== ".." && !isAbsolute(rest));
}
