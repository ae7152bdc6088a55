import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { isValidSessionId } from "../session/index.js";
import { CtxkitError } from "../types/index.js";
import type { CliFlags } from "./cli-options.js";
import type { CliIo } from "./cli-io.js";

/**
 * What `view` and `inspect` take: a path that exists is a file; otherwise a session id of the
 * workspace's store (`--workspace`, `--data-dir`). With `missing: "keep"` a name that is neither is
 * handed back as a path, for the caller to report as unreadable with the other files.
 */
export async function resolveTranscriptInput(item: string, flags: CliFlags, io: CliIo, options: { missing: "error" | "keep" }): Promise<string> {
  const path = resolve(io.cwd, item);
  if (existsSync(path)) return path;
  if (!isValidSessionId(item)) {
    if (options.missing === "keep") return path;
    throw new CtxkitError("option_invalid", `${item} is neither a file nor a session id.`);
  }
  // Imported only for a session id: the configuration pulls in every provider and tool (a slower start).
  const [{ resolveConfig }, { openSessionStoreFor, sessionFileFor }] = await Promise.all([import("./resolve-config.js"), import("../config/open-session-store.js")]);
  // `--tools` of view and inspect names a file of tool schemas, not the agent's tool list.
  const { tools: _tools, ...settings } = flags;
  const config = resolveConfig(settings, io.env, { cwd: io.cwd });
  const store = await openSessionStoreFor(config);
  // In PostgreSQL: a private copy of its records, byte for byte the JSONL file the importers read.
  if (config.databaseUrl !== undefined) return sessionFileFor(store, item);
  const file = store.path(item);
  if (existsSync(file)) return file;
  if (options.missing === "keep") return path;
  throw new CtxkitError("session_not_found", `No file ${item} and no session ${item} in ${config.dataDir}; see 'ctxkit sessions list'.`);
}
