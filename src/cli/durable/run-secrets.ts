import { ConfigError, CtxkitError } from "../../types/index.js";

/**
 * The secrets a run's record leaves out, by name only: the values of MCP servers' `headers` and
 * `env`, and the user:password of URLs (the provider's `baseURL`, MCP servers' `url`). The record
 * is stored in the database and printed by `submit --json` / `runs show --json`; the worker fills
 * the values in from its own config files and environment (see fillRunSecrets).
 */
export interface LeftOutSecrets {
  /** Per MCP server: the names of the header and env values left out, and whether its URL had credentials. */
  mcpServers?: Record<string, { headers?: string[]; env?: string[]; urlCredentials?: boolean }>;
  /** The provider's baseURL had user:password. */
  baseUrlCredentials?: boolean;
}

type Settings = Record<string, unknown>;
type ServerEntry = Record<string, unknown>;

/** `url` without its user:password; `changed` says whether there were any. Not a URL: unchanged. */
export function withoutUrlCredentials(url: string): { url: string; changed: boolean } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, changed: false };
  }
  if (parsed.username === "" && parsed.password === "") return { url, changed: false };
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.href, changed: true };
}

/**
 * A copy of `settings` without secret values, and what was left out (names only). The embeddings
 * server's URL may not carry user:password at all (its key goes by variable name, which a worker
 * reads from its own environment): throws `option_invalid` pointing there.
 */
export function leaveOutRunSecrets(settings: Settings): { settings: Settings; leftOut: LeftOutSecrets } {
  if (typeof settings.toolSearchEmbeddingsUrl === "string" && withoutUrlCredentials(settings.toolSearchEmbeddingsUrl).changed) {
    throw new ConfigError(
      "option_invalid",
      "toolSearchEmbeddingsUrl (--tool-search-embeddings-url) has a user:password, which a durable run would store with its settings. " +
        "Give the URL without it and put the key in an environment variable of the workers, named with toolSearchEmbeddingsApiKeyEnv (--tool-search-embeddings-api-key-env).",
    );
  }
  const copy: Settings = { ...settings };
  const leftOut: LeftOutSecrets = {};
  if (typeof copy.baseURL === "string") {
    const stripped = withoutUrlCredentials(copy.baseURL);
    copy.baseURL = stripped.url;
    if (stripped.changed) leftOut.baseUrlCredentials = true;
  }
  const servers = copy.mcpServers as Record<string, ServerEntry> | undefined;
  if (servers && typeof servers === "object") {
    const cleaned: Record<string, ServerEntry> = {};
    for (const [name, entry] of Object.entries(servers)) {
      const server: ServerEntry = { ...entry };
      const record: { headers?: string[]; env?: string[]; urlCredentials?: boolean } = {};
      for (const key of ["headers", "env"] as const) {
        const values = server[key] as Record<string, string> | undefined;
        if (values && Object.keys(values).length > 0) record[key] = Object.keys(values);
        delete server[key];
      }
      if (typeof server.url === "string") {
        const stripped = withoutUrlCredentials(server.url);
        server.url = stripped.url;
        if (stripped.changed) record.urlCredentials = true;
      }
      if (Object.keys(record).length > 0) (leftOut.mcpServers ??= {})[name] = record;
      cleaned[name] = server;
    }
    copy.mcpServers = cleaned;
  }
  return { settings: copy, leftOut };
}

/** What a worker has to fill a run's secrets from: its own resolved config (for the run's workspace) and environment. */
export interface WorkerSecretSources {
  baseURL?: string;
  mcpServers: Record<string, ServerEntry>;
  environment: Record<string, string | undefined>;
  host: string;
}

/**
 * Puts the left-out values back from the worker's own config (the MCP server of the same name, a
 * baseURL to the same place) or, for an MCP server's env, the worker's variable of that name. A
 * value the worker does not have fails the run with option_invalid naming it and the worker's host.
 */
export function fillRunSecrets(settings: Settings, leftOut: LeftOutSecrets | undefined, sources: WorkerSecretSources): Settings {
  if (!leftOut) return settings;
  const filled: Settings = { ...settings };
  const missing = (what: string) =>
    new CtxkitError("option_invalid", `The run needs ${what}, which ctxkit submit does not store; set it in the worker's config (or environment) on ${sources.host}.`);
  if (leftOut.baseUrlCredentials) {
    const own = sources.baseURL;
    if (own === undefined || withoutUrlCredentials(own).url !== filled.baseURL) throw missing(`the credentials of baseURL ${String(filled.baseURL)}`);
    filled.baseURL = own;
  }
  if (leftOut.mcpServers) {
    const servers = { ...(filled.mcpServers as Record<string, ServerEntry>) };
    for (const [name, names] of Object.entries(leftOut.mcpServers)) {
      const server: ServerEntry = { ...servers[name] };
      const own = sources.mcpServers[name];
      if (names.urlCredentials) {
        const ownUrl = typeof own?.url === "string" ? own.url : undefined;
        if (ownUrl === undefined || withoutUrlCredentials(ownUrl).url !== server.url) throw missing(`the credentials of MCP server '${name}''s url`);
        server.url = ownUrl;
      }
      for (const key of ["headers", "env"] as const) {
        const ownValues = (own?.[key] ?? {}) as Record<string, string>;
        const values: Record<string, string> = {};
        for (const valueName of names[key] ?? []) {
          const value = ownValues[valueName] ?? (key === "env" ? sources.environment[valueName] : undefined);
          if (value === undefined) throw missing(`${key === "headers" ? "header" : "environment variable"} ${valueName} of MCP server '${name}'`);
          values[valueName] = value;
        }
        if (names[key]) server[key] = values;
      }
      servers[name] = server;
    }
    filled.mcpServers = servers;
  }
  return filled;
}
