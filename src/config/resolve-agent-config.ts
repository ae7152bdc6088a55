import { resolve } from "node:path";
import { parseMcpServersConfig } from "../mcp/mcp-config.js";
import { ConfigError } from "../types/index.js";
import type { AgentConfig } from "./agent-config.js";
import { checkConfigFile, configKeys, type ConfigFile } from "./config-schema.js";
import { nearestName } from "../types/nearest-name.js";
import { configDefaults, defaultToolNames, expandToolList } from "./config-values.js";

/** `unknown key 'modle' (did you mean 'model'?)`, as the CLI says it of a file: a typo is the likeliest mistake. */
function describeUnknownKeys(keys: readonly string[]): string {
  return keys
    .map((key) => {
      const suggestion = key === "" ? undefined : nearestName(key, configKeys, Math.max(2, Math.floor(key.length / 3)), { ignoreCase: true });
      return `unknown key '${key}'${suggestion ? ` (did you mean '${suggestion}'?)` : ""}`;
    })
    .join(", ");
}

/**
 * A config file's settings (`ctxkit.config.json`'s keys) resolved for an agent: checked against the
 * schema, defaults applied, places made absolute (relative ones are inside `workspace`). The CLI
 * merges flags, variables and config files into one such object and resolves it here, so a library
 * user with the same settings gets the same agent. `yes` and `allow` become the tool-approvals
 * policy's rules. Keys only the CLI reads (`color`, `logRequests`) are accepted and left out.
 */
export function resolveAgentConfig(settings: ConfigFile, workspace: string): AgentConfig {
  const checked = checkConfigFile(settings);
  if (!checked.success) {
    const issue = checked.issue;
    const what = issue.kind === "unknown_keys" ? describeUnknownKeys(issue.keys) : issue.kind === "not_one_of" ? `a value it does not take; use one of: ${issue.values.join(", ")}` : issue.message;
    throw new ConfigError("config_file_invalid", `The agent's settings${checked.key ? ` ('${checked.key}')` : ""}: ${what}. Use the keys and values of ctxkit.config.json (docs/configuration.md).`);
  }
  const file = checked.value;
  const value = { ...configDefaults, ...definedOnly(file) };
  const place = (path: string) => resolve(workspace, path);
  const mcp = file.mcpServers ? parseMcpServersConfig({ mcpServers: file.mcpServers }, "mcpServers", "library") : { servers: {}, warnings: [] };
  const hasLimit = file.budgetTokens !== undefined || file.budgetCost !== undefined;
  return {
    provider: value.provider,
    vendor: value.vendor,
    ...(file.baseURL ? { baseURL: file.baseURL } : {}),
    ...(file.model ? { model: file.model } : {}),
    ...(file.modelPath ? { modelPath: place(file.modelPath) } : {}),
    ...(file.apiKey ? { apiKey: file.apiKey } : {}),
    workspace,
    dataDir: place(value.dataDir),
    ...(file.databaseUrl ? { databaseUrl: file.databaseUrl } : {}),
    timeouts: {
      ...(file.requestTimeout === undefined ? {} : { firstByteMs: Math.round(file.requestTimeout * 1000) }),
      ...(file.idleTimeout === undefined ? {} : { idleMs: Math.round(file.idleTimeout * 1000) }),
    },
    cache: { ttl: value.cacheTtl, ...(file.cacheKey ? { key: file.cacheKey } : {}), ...(file.cacheRetention ? { retention: file.cacheRetention } : {}) },
    ...(file.reasoningEffort === undefined ? {} : { reasoningEffort: file.reasoningEffort }),
    ...(file.compactThreshold === undefined ? {} : { compactThreshold: file.compactThreshold }),
    ...(file.reasoningRoundTrip === undefined ? {} : { reasoningRoundTrip: file.reasoningRoundTrip }),
    maxIterations: value.maxIterations,
    ...(file.contextWindow ? { contextWindow: file.contextWindow } : {}),
    compression: value.compression,
    tools: file.tools ? expandToolList(file.tools) : [...defaultToolNames],
    statusBar: {
      mode: value.statusBar,
      timestamps: value.statusBarTimestamps,
      counters: value.statusBarCounter,
      todo: value.statusBarTodo,
      detailedErrors: value.statusBarErrors,
      systemState: value.statusBarState,
    },
    subAgents: value.subAgents,
    allowLoopbackFetch: value.allowLoopbackFetch,
    untrustedContent: { trustWorkspace: value.trustWorkspace, allowUnderTaint: [...new Set(file.allowUnderTaint ?? [])], externalTools: [...new Set(file.externalTools ?? [])], notice: value.untrustedContentNotice },
    approvals: { allow: [...new Set(file.allow ?? [])], approveAll: value.yes },
    skillDirectories: (file.skills ?? []).map(place),
    mcp,
    ...(file.deferTools === undefined ? {} : { deferTools: file.deferTools }),
    ...(file.toolSearchEmbeddingsUrl || file.toolSearchEmbeddingsModel || file.toolSearchEmbeddingModelPath
      ? {
          toolSearchEmbeddings: {
            ...(file.toolSearchEmbeddingsUrl ? { url: file.toolSearchEmbeddingsUrl } : {}),
            ...(file.toolSearchEmbeddingsModel ? { model: file.toolSearchEmbeddingsModel } : {}),
            ...(file.toolSearchEmbeddingsApiKeyEnv ? { apiKeyEnv: file.toolSearchEmbeddingsApiKeyEnv } : {}),
            ...(file.toolSearchEmbeddingModelPath ? { modelPath: place(file.toolSearchEmbeddingModelPath) } : {}),
          },
        }
      : {}),
    notes: value.notes,
    ...(hasLimit
      ? { budget: { ...(file.budgetTokens !== undefined ? { tokens: file.budgetTokens } : {}), ...(file.budgetCost !== undefined ? { costUsd: file.budgetCost } : {}), mode: file.budgetMode ?? "hard" } }
      : {}),
    ...(file.temperature === undefined ? {} : { temperature: file.temperature }),
    ...(file.maxOutputTokens === undefined ? {} : { maxOutputTokens: file.maxOutputTokens }),
    ...(file.system === undefined ? {} : { system: file.system.startsWith("@") ? `@${place(file.system.slice(1))}` : file.system }),
    projectInstructions: value.projectInstructions,
  };
}

function definedOnly<Value extends object>(value: Value): Partial<Value> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<Value>;
}
