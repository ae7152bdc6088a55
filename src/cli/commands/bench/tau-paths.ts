import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { CtxkitError } from "../../../types/index.js";
import { tauDomainNames, type TauDomainName } from "../../../bench/tau/tau-domain.js";
import type { CliIo } from "../../cli-io.js";

/** Where the τ-bench corpus is: `--corpus`, else $CTXKIT_CORPUS, else ../shared/corpus. */
export function tauCorpusDirectory(io: CliIo, corpus: unknown): string {
  return resolve(io.cwd, typeof corpus === "string" ? corpus : (io.env.CTXKIT_CORPUS ?? "../shared/corpus"), "tau-bench");
}

/** A domain's folder: `--domain-dir`, else `<corpus>/tau-bench/<domain>`. */
export function tauDomainDirectory(io: CliIo, domain: TauDomainName, flags: { corpus?: unknown; "domain-dir"?: unknown }): string {
  const explicit = flags["domain-dir"];
  return typeof explicit === "string" ? resolve(io.cwd, explicit) : resolve(tauCorpusDirectory(io, flags.corpus), domain);
}

export function parseTauDomainName(value: unknown, fallback?: TauDomainName): TauDomainName {
  if (value === undefined && fallback) return fallback;
  if (typeof value === "string" && (tauDomainNames as readonly string[]).includes(value)) return value as TauDomainName;
  throw new CtxkitError("usage_invalid", `--domain must be one of ${tauDomainNames.join(", ")}, got '${String(value)}'.`);
}

export function requireExisting(path: string, what: string): void {
  if (!existsSync(path)) throw new CtxkitError("option_invalid", `No ${what} at ${path}. Pass the path explicitly, or --corpus <dir> (the folder holding tau-bench/).`);
}
