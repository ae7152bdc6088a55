import { isAbsolute, relative } from "node:path";

/** Whether `path` is `folder` or lies under it (both absolute; no file-system access). */
export function isInsideFolder(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === "" || (!rest.startsWith("..") && !isAbsolute(rest));
}
