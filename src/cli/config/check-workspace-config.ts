import { existsSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isInside } from "../../tools/workspace-path.js";
import { ConfigError } from "../../types/index.js";
import { configSettings, type SettingDeclaration } from "./config-settings.js";
import type { ConfigFile, ConfigKey } from "../../config/config-schema.js";

/**
 * A workspace's config file comes with the repository, which may not be the user's own. It may not
 * set what only the user may decide — where the API key is sent (provider, vendor, baseURL, apiKey),
 * what is approved on the user's behalf (allow, yes), what counts as trusted — and the places it
 * names (dataDir, logRequests, skills) must be inside the workspace. Each refusal names the file,
 * the key, the reason and where the setting belongs instead.
 */
export function checkWorkspaceConfig(config: ConfigFile, path: string): ConfigFile {
  const workspace = dirname(path);
  for (const key of Object.keys(config) as ConfigKey[]) {
    const setting: SettingDeclaration = configSettings[key];
    const rule = setting.workspace;
    if (rule === undefined || rule === "narrow") continue;
    if (rule === "inside") {
      const value = config[key] as string | string[];
      for (const place of Array.isArray(value) ? value : [value]) {
        if (isInsideDirectory(workspace, resolve(workspace, place))) continue;
        const flag = setting.flag ? `--${setting.flag}` : "the flag";
        throw new ConfigError(
          "config_file_invalid",
          `${path}: '${key}' ${place} is outside the workspace; a workspace's config may only name places inside it ` +
            `(a cloned repository could otherwise make ctxkit read or write elsewhere). Pass ${flag}${setting.env?.[0] ? `, set ${setting.env[0]}` : ""} or use ~/.config/ctxkit/config.json.`,
        );
      }
      continue;
    }
    // An empty list approves nothing (repositories that ship `"allow": []` keep working).
    if (Array.isArray(config[key]) && (config[key] as unknown[]).length === 0) continue;
    const orPass = rule.userOnly.orPass ?? (setting.flag ? `--${setting.flag}` : undefined);
    throw new ConfigError(
      "config_file_invalid",
      `${path}: '${key}' is not read from a workspace's config (${rule.userOnly.why}). ` +
        `Move it to ~/.config/ctxkit/config.json${orPass ? `, or pass ${orPass}` : ""}.`,
    );
  }
  return config;
}

/** Lexically inside, and not through a symbolic link to outside either (checked at the nearest existing ancestor). */
export function isInsideDirectory(parent: string, child: string): boolean {
  if (!isInside(parent, child)) return false;
  let existing = child;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  return isInside(realpathSync(parent), realpathSync(existing));
}
