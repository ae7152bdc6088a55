import { ConfigError } from "../../types/index.js";

/**
 * A provider's `baseURL`, checked when the provider is made: an http(s) URL. Without the check a
 * value such as `localhost:8000` (no scheme) was accepted and every call failed with fetch's words.
 */
export function checkBaseURL(value: unknown, label: string, example: string): string {
  const fix = `Pass \`baseURL\` as a full http(s) URL such as ${example}.`;
  if (typeof value !== "string") throw new ConfigError("option_invalid", `${label}: \`baseURL\` must be a string. ${fix}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError("option_invalid", `${label}: \`baseURL\` ${JSON.stringify(value)} is not a URL. ${fix}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError("option_invalid", `${label}: \`baseURL\` ${JSON.stringify(value)} must use http or https. ${fix}`);
  return value;
}
