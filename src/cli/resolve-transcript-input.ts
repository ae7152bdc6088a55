import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { isValidSessionId } from "../session/index.js";
import { CtxkitError, isCtxkitError } from "../types/index.js";
import type { CliFlags } from "./cli-options.js";
import type { CliIo } from "./cli-io.js";

/**
 * A name `view` or `inspect` was given: the file it stands for, or why it stands for none (`reason`
 * follows the name: "<item> is neither a file … nor a session in …").
 */
export type TranscriptInput = { file: string } | { item: string; code: "option_invalid" | "session_not_found"; reason: string };

/** The error for a name that stands for no file and no session, for a command that needs every name it was given. */
export function transcriptInputError(input: Extract<TranscriptInput, { reason: string }>): CtxkitError {
  return new CtxkitError(input.code, `${input.item} is ${input.reason}`);
}

/**
 * What `view` and `inspect` take: a path that exists is a file; otherwise a session id of the
 * workspace's store (`--workspace`, `--data-dir`, `--database-url`). A name that is neither comes back
 * with a reason that says it was looked up both ways and where the sessions are.
 */
export async function resolveTranscriptInput(item: string, flags: CliFlags, io: CliIo): Promise<TranscriptInput> {
  const path = resolve(io.cwd, item);
  if (existsSync(path)) return { file: path };
  if (!isValidSessionId(item)) {
    return { item, code: "option_invalid", reason: `neither a file (no ${path}) nor a session id (letters, digits, ".", "_" or "-").` };
  }
  // Imported only for a session id: the configuration pulls in every provider and tool (a slower start).
  const [{ resolveConfig }, { openSessionStoreFor, sessionFileFor }] = await Promise.all([import("./resolve-config.js"), import("../config/open-session-store.js")]);
  // `--tools` of view and inspect names a file of tool schemas, not the agent's tool list.
  const { tools: _tools, ...settings } = flags;
  const config = resolveConfig(settings, io.env, { cwd: io.cwd });
  const store = await openSessionStoreFor(config);
  const notFound = () => {
    const where = config.databaseUrl === undefined ? `${store.location} (the sessions of --workspace or --data-dir)` : `${store.location} (--database-url)`;
    return { item, code: "session_not_found" as const, reason: `neither a file (no ${path}) nor a session in ${where}; see 'ctxkit sessions list'.` };
  };
  if (config.databaseUrl !== undefined) {
    // In PostgreSQL: a private copy of its records, byte for byte the JSONL file the importers read.
    try {
      return { file: await sessionFileFor(store, item) };
    } catch (error) {
      if (isCtxkitError(error) && error.code === "session_not_found") return notFound();
      throw error;
    }
  }
  const file = store.path(item);
  return existsSync(file) ? { file } : notFound();
}
