import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { prepareDataDirectory } from "../session/private-storage.js";
import { CtxkitError } from "../types/index.js";
import type { SettingOrigin } from "./config/resolve-settings.js";
import { describeFileErrorCode } from "./describe-system-error.js";
import type { ResolvedConfig } from "./resolve-config.js";
import { nodeErrorCode } from "../types/node-error-code.js";

/** Where the data directory was chosen, in the words the person used to choose it. */
function describeOrigin(origin: SettingOrigin | SettingOrigin[] | undefined, directory: string): string {
  const first = Array.isArray(origin) ? origin[0] : origin;
  if (first?.source === "flag") return `--data-dir ${directory}`;
  if (first?.source === "environment") return `${first.variable ?? "CTXKIT_DATA_DIR"}=${directory}`;
  if (first?.file !== undefined) return `"dataDir" in ${first.file} (${directory})`;
  return `The data directory ${directory} (the default, in the workspace)`;
}

/**
 * Makes the data directory (private, git-ignored) and checks that it can be written, before a run
 * starts: a folder under a file, under /proc or on a read-only disk is refused with the setting
 * that named it, instead of failing at the session's first write with Node's bare error.
 */
export async function requireWritableDataDirectory(config: Pick<ResolvedConfig, "dataDir" | "settings">): Promise<void> {
  try {
    await prepareDataDirectory(config.dataDir);
    await access(config.dataDir, constants.W_OK);
  } catch (error) {
    const code = nodeErrorCode(error);
    const { syscall, path } = error as NodeJS.ErrnoException;
    const reason = code === undefined ? undefined : describeFileErrorCode(code, syscall);
    if (reason === undefined) throw error;
    const where = path !== undefined && path !== config.dataDir ? `, ${syscall ?? "using"} ${path}` : "";
    throw new CtxkitError(
      "option_invalid",
      `${describeOrigin(config.settings.dataDir?.origin, config.dataDir)}: cannot keep sessions there: ${reason} (${code}${where}). ` +
        `Give a folder you may write: --data-dir <dir>, CTXKIT_DATA_DIR, or "dataDir" in ctxkit.config.json.`,
      { cause: error },
    );
  }
}
