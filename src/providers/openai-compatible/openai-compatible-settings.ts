import { ConfigError } from "../../types/index.js";
import type { RetryOptions } from "../shared/fetch-with-retry.js";
import { resolveMaxEventCharacters } from "../shared/server-sent-events.js";
import { resolveStreamTimeouts, type StreamTimeouts } from "../shared/stream-timeouts.js";
import {
  isOpenAICompatibleVendor,
  openAICompatibleVendors,
  reasoningRoundTripFor,
  reasoningRoundTrips,
  vendorProfiles,
  type OpenAICompatibleVendor,
  type ReasoningRoundTrip,
  type VendorProfile,
} from "./vendor-profiles.js";

export interface OpenAICompatibleSettings {
  /** Which server speaks the protocol (default "openai"); picks the base URL, key and quirks. */
  vendor?: OpenAICompatibleVendor;
  model: string;
  /** Default: the vendor's (see vendor-profiles.ts). Usually ends in /v1. */
  baseURL?: string;
  /** Default: the vendor's environment variable (OPENAI_API_KEY, DEEPSEEK_API_KEY, …). */
  apiKey?: string;
  /** Extra headers, e.g. OpenRouter's `HTTP-Referer` / `X-Title`. They override ctxkit's own. */
  headers?: Record<string, string>;
  /** Default: globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
  /** Stream with SSE (default true); false asks for one JSON response. */
  stream?: boolean;
  retry?: RetryOptions;
  /** First-byte and idle-stream limits (default 60 s each); each ends the call with a retryable `provider_timeout`. */
  timeouts?: StreamTimeouts;
  /** The most characters one server-sent event may hold (default 64 Mi); a larger one ends the call with `provider_event_too_large`. */
  maxEventCharacters?: number;
  /**
   * Overrides the vendor's policy for sending assistant `reasoning_content` back (default: the
   * vendor's, or its rule for the model: llama.cpp sends it on tool-call turns of gpt-oss models).
   */
  reasoningRoundTrip?: ReasoningRoundTrip;
  /** Where API keys are looked up (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Keeps a session's calls on one prompt cache (read on every call, so it can be the session id
   * once the session exists; keep it fixed for a session). OpenAI gets it as `prompt_cache_key`;
   * every other vendor as the `x-session-affinity` header, which session-aware routers in front of
   * OpenAI-compatible servers hash on (Merge Gateway and Bifrost read it, as Claude Code / Codex
   * harness headers; servers that do not know it ignore an unknown header).
   */
  cacheKey?: string | (() => string | undefined);
}

export interface ResolvedOpenAICompatibleSettings {
  profile: VendorProfile;
  model: string;
  baseURL: string;
  apiKey?: string;
  headers: Record<string, string>;
  fetch: typeof globalThis.fetch;
  stream: boolean;
  retry: RetryOptions;
  timeouts: Required<StreamTimeouts>;
  maxEventCharacters: number;
  reasoningRoundTrip: ReasoningRoundTrip;
  cacheKey?: () => string | undefined;
}

/** The cache key goes into the body only for OpenAI itself; other vendors get it as a header (see `cacheKey`). */
export function openAICacheKey(settings: ResolvedOpenAICompatibleSettings): { promptCacheKey?: string } {
  if (settings.profile.vendor !== "openai" || settings.cacheKey === undefined) return {};
  const key = settings.cacheKey();
  return key === undefined || key === "" ? {} : { promptCacheKey: key };
}

/** Validates settings before any I/O; throws a `ConfigError` (`option_invalid` or `api_key_missing`) with the fix. */
export function resolveOpenAICompatibleSettings(settings: OpenAICompatibleSettings): ResolvedOpenAICompatibleSettings {
  if (settings === null || typeof settings !== "object") throw configInvalid("settings must be an object with at least `model`");
  const vendor = settings.vendor ?? "openai";
  if (!isOpenAICompatibleVendor(vendor)) {
    throw configInvalid(`unknown vendor '${String(vendor)}'. Use one of: ${openAICompatibleVendors.join(", ")}`);
  }
  const profile = vendorProfiles[vendor];
  if (typeof settings.model !== "string" || settings.model.trim() === "") {
    throw configInvalid(`\`model\` is required (the model name ${profile.label} serves, e.g. { model: "qwen3:8b" })`, "model_missing");
  }
  const fetchFunction = settings.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== "function") throw configInvalid("`fetch` must be a function (Node 20 has a global fetch)");
  if (settings.stream !== undefined && typeof settings.stream !== "boolean") throw configInvalid("`stream` must be true or false");
  const reasoningRoundTrip = settings.reasoningRoundTrip ?? reasoningRoundTripFor(profile, settings.model);
  if (!reasoningRoundTrips.includes(reasoningRoundTrip)) {
    throw configInvalid(`\`reasoningRoundTrip\` must be "send", "tool-calls" or "strip", got '${String(reasoningRoundTrip)}'`);
  }
  const resolved: ResolvedOpenAICompatibleSettings = {
    profile,
    model: settings.model,
    baseURL: resolveBaseURL(settings.baseURL ?? profile.defaultBaseURL),
    headers: resolveHeaders(settings.headers),
    fetch: fetchFunction,
    stream: settings.stream ?? true,
    retry: resolveRetry(settings.retry),
    timeouts: resolveStreamTimeouts(settings.timeouts, profile.label),
    maxEventCharacters: resolveMaxEventCharacters(settings.maxEventCharacters, profile.label),
    reasoningRoundTrip,
  };
  const { cacheKey } = settings;
  if (cacheKey !== undefined && typeof cacheKey !== "string" && typeof cacheKey !== "function") throw configInvalid("`cacheKey` must be a string or a function returning one");
  if (cacheKey !== undefined) resolved.cacheKey = typeof cacheKey === "function" ? cacheKey : () => cacheKey;
  const apiKey = resolveApiKey(settings, profile);
  if (apiKey !== undefined) resolved.apiKey = apiKey;
  return resolved;
}

function resolveApiKey(settings: OpenAICompatibleSettings, profile: VendorProfile): string | undefined {
  if (settings.apiKey !== undefined && typeof settings.apiKey !== "string") throw configInvalid("`apiKey` must be a string");
  const env = settings.env ?? process.env;
  const fromEnv = profile.apiKeyEnvVars.map((name) => env[name]).find((value) => value !== undefined && value.trim() !== "");
  const apiKey = (settings.apiKey ?? fromEnv)?.trim();
  if (apiKey !== undefined && apiKey !== "") return apiKey;
  if (!profile.requiresApiKey) return undefined;
  // A base URL other than the vendor's own is a self-hosted or proxy server (often key-less):
  // send no Authorization header instead of refusing to start.
  if (settings.baseURL !== undefined && !isSameBaseURL(settings.baseURL, profile.defaultBaseURL)) return undefined;
  const variables = profile.apiKeyEnvVars.join(" or ");
  throw new ConfigError(
    "api_key_missing",
    `${profile.label} needs an API key. Set the ${variables} environment variable, ` +
      "or set `apiKey` in the provider settings.",
  );
}

function isSameBaseURL(left: string, right: string): boolean {
  return left.replace(/\/+$/, "") === right.replace(/\/+$/, "");
}

function resolveBaseURL(value: unknown): string {
  if (typeof value !== "string") throw configInvalid("`baseURL` must be a string such as http://127.0.0.1:8000/v1");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw configInvalid(`\`baseURL\` '${value}' is not a URL. Use a full URL such as http://127.0.0.1:8000/v1`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw configInvalid(`\`baseURL\` '${value}' must use http or https`);
  return value.replace(/\/+$/, "");
}

function resolveHeaders(headers: unknown): Record<string, string> {
  if (headers === undefined) return {};
  if (headers === null || typeof headers !== "object" || Array.isArray(headers)) throw configInvalid("`headers` must be an object");
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") throw configInvalid(`header '${name}' must be a string`);
  }
  return { ...(headers as Record<string, string>) };
}

function resolveRetry(retry: unknown): RetryOptions {
  if (retry === undefined) return {};
  if (retry === null || typeof retry !== "object") throw configInvalid("`retry` must be an object");
  for (const [name, value] of Object.entries(retry)) {
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value >= 0)) {
      throw configInvalid(`retry.${name} must be a number ≥ 0`);
    }
  }
  return { ...(retry as RetryOptions) };
}

function configInvalid(detail: string, code: "option_invalid" | "model_missing" = "option_invalid"): ConfigError {
  return new ConfigError(code, `Invalid OpenAI-compatible provider settings: ${detail}.`);
}
