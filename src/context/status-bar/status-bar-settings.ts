import type { TokenCounter } from "../../tokens/token-counter.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import { CtxkitError, type ToolDefinition, ConfigError } from "../../types/index.js";
import type { StatusBarModeDecision } from "./choose-status-bar-mode.js";
import type { SystemState } from "./system-state.js";

/** How the status message reaches the model (seed, "状态更新的两种实现与缓存代价"). */
export type StatusBarMode = "replace" | "append" | "auto";

/** Count calls of `tool` per value of its `argument` (the seed's "Xfinity: 3 times" for `phone_call`). */
export interface StatusBarTarget {
  tool: string;
  argument: string;
}

/** A declared limit: at most `max` calls of `tool`, per value of `argument` when given. */
export interface StatusBarLimit {
  tool: string;
  argument?: string;
  max: number;
}

export interface StatusBarOptions {
  /** `[2025-09-14 10:30:45]` on tool results and user messages (default true). */
  timestamps?: boolean;
  /** `[Tool call #3 for 'read_file']` on results; call counts, targets, limits, failures in the status (default true). */
  counters?: boolean;
  /** The TODO list and the goal recitation in the status (default true); add `createTodoTools()` to the agent's tools. */
  todo?: boolean;
  /** Failed results rewritten with arguments and suggestions; repeated failures in the status (default true). */
  detailedErrors?: boolean;
  /** Current time, working directory, OS, shell and runtime in the status (default true). */
  systemState?: boolean;
  /** `off` sends no status message (per-result metadata still follows the switches above). Default `auto`. */
  mode?: StatusBarMode | "off";
  targets?: StatusBarTarget[];
  limits?: StatusBarLimit[];
  /**
   * Facts shown by `systemState` (working directory, OS, shell, runtime): pass `detectSystemState(workspace)`.
   * Without it the status shows only the time — the status bar never reads the environment itself.
   */
  environment?: SystemState;
  /** IANA zone for every timestamp (default "UTC", so runs are reproducible; the CLI passes the local zone). */
  timeZone?: string;
  /** Tool definitions, for the schema expectations of invalid-argument errors (default: the agent's prefix tools). */
  tools?: readonly ToolDefinition[];
  /** `auto`: α, the provider's cached-input price divided by its input price (default 0.1). */
  cachedInputPriceRatio?: number;
  /** `auto`: N, the model calls a run is expected to take (default 10). */
  expectedCallsPerRun?: number;
  /** `auto`: R before any call was observed — tokens a call appends (default 500). */
  appendedTokensPerCall?: number;
  /**
   * `auto`: whether the provider's cache also keeps the model's generated reply (vLLM prefix caching,
   * llama.cpp slots: true) or only prompts (hosted APIs: OpenAI, Anthropic, DeepSeek…; default false).
   * It decides which part of R a replaced status really invalidates (see measureModeInputs).
   */
  cacheKeepsReplies?: boolean;
  /** Counts S and R for `auto` (default: the calibrated estimator). */
  tokenCounter?: TokenCounter;
  /**
   * The provider's prompt-cache lifetime in ms (`Provider.cacheLifetimeMs`: Anthropic's `ttl`,
   * OpenAI's retention). Shown as `prompt_cache:` in a status sent as the tail, never in a stored one.
   */
  cacheLifetimeMs?: number;
  /** Told each `auto` decision, with its inputs (the CLI prints it). */
  onDecision?: (decision: StatusBarModeDecision) => void;
}

export interface StatusBarSettings {
  timestamps: boolean;
  counters: boolean;
  todo: boolean;
  detailedErrors: boolean;
  systemState: boolean;
  mode: StatusBarMode | "off";
  targets: StatusBarTarget[];
  limits: StatusBarLimit[];
  environment?: SystemState;
  timeZone: string;
  tools?: readonly ToolDefinition[];
  cachedInputPriceRatio: number;
  expectedCallsPerRun: number;
  appendedTokensPerCall: number;
  cacheKeepsReplies: boolean;
  tokenCounter: TokenCounter;
  cacheLifetimeMs?: number;
}

const modes = ["replace", "append", "auto", "off"];

/** Fills in defaults and checks values; misuse fails here, before any call. */
export function resolveStatusBarSettings(options: StatusBarOptions = {}): StatusBarSettings {
  const mode = options.mode ?? "auto";
  if (!modes.includes(mode)) throw invalid(`mode must be one of ${modes.join(", ")}, got ${JSON.stringify(mode)}`);
  const ratio = options.cachedInputPriceRatio ?? 0.1;
  if (!(ratio >= 0 && ratio <= 1)) throw invalid(`cachedInputPriceRatio must be between 0 and 1, got ${ratio}`);
  for (const limit of options.limits ?? []) {
    if (!Number.isInteger(limit.max) || limit.max < 1) throw invalid(`the limit of '${limit.tool}' must be a positive whole number, got ${limit.max}`);
  }
  const timeZone = options.timeZone ?? "UTC";
  // "UTC" is known without asking ICU (whose first date format costs tens of milliseconds).
  try {
    if (timeZone !== "UTC") new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    throw invalid(`unknown time zone ${JSON.stringify(timeZone)}; use an IANA name such as "Europe/Berlin" or "UTC"`);
  }
  // A limit per argument value needs that argument's counts, so it declares the target too.
  const targets = [...(options.targets ?? [])];
  for (const limit of options.limits ?? []) {
    const argument = limit.argument;
    if (argument !== undefined && !targets.some((target) => target.tool === limit.tool && target.argument === argument)) {
      targets.push({ tool: limit.tool, argument });
    }
  }
  return {
    timestamps: options.timestamps ?? true,
    counters: options.counters ?? true,
    todo: options.todo ?? true,
    detailedErrors: options.detailedErrors ?? true,
    systemState: options.systemState ?? true,
    mode,
    targets,
    limits: [...(options.limits ?? [])],
    ...(options.environment ? { environment: options.environment } : {}),
    timeZone,
    ...(options.tools ? { tools: options.tools } : {}),
    cachedInputPriceRatio: ratio,
    expectedCallsPerRun: positive(options.expectedCallsPerRun ?? 10, "expectedCallsPerRun"),
    appendedTokensPerCall: positive(options.appendedTokensPerCall ?? 500, "appendedTokensPerCall"),
    cacheKeepsReplies: options.cacheKeepsReplies ?? false,
    tokenCounter: options.tokenCounter ?? getTokenCounter("estimate"),
    ...(options.cacheLifetimeMs === undefined ? {} : { cacheLifetimeMs: positive(options.cacheLifetimeMs, "cacheLifetimeMs") }),
  };
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0)) throw invalid(`${name} must be a positive number, got ${value}`);
  return value;
}

function invalid(detail: string): CtxkitError {
  return new ConfigError("option_invalid", `Invalid status bar option: ${detail}.`);
}
