import { configSettings, type SettingDeclaration } from "./config-settings.js";
import { formatEntry } from "./format-options-help.js";

/**
 * The keys of the config files, for `ctxkit config --help`: each key with its flag, and which a
 * workspace's ctxkit.config.json may not set or may only narrow. Generated from the settings' table.
 */
export function formatConfigKeysHelp(): string {
  const lines = (Object.entries(configSettings) as Array<[string, SettingDeclaration]>).flatMap(([key, setting]) => {
    const rule = setting.workspace;
    const parts = [
      setting.flag ? (setting.usage ?? `--${setting.flag}`) : setting.help ?? "",
      ...(setting.env?.length ? [setting.env.join(", ")] : []),
      ...(rule === undefined ? [] : rule === "narrow" ? ["a workspace may only narrow it"] : rule === "inside" ? ["a workspace's must be inside it"] : ["user's config only"]),
    ];
    return formatEntry(key, parts.join("; "));
  });
  return `Config file keys (ctxkit.config.json in the workspace, ~/.config/ctxkit/config.json):\n${lines.join("\n")}\n`;
}
