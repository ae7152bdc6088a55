import type { ConfigFile } from "../../config/config-schema.js";
import type { ResolvedSetting, SettingInputs } from "./resolve-settings.js";

/**
 * Settings that add tools: `subAgents` (the task tool) and `notes` (notes_read, notes_write). Like
 * 'tools', a workspace's config (which comes with the repository) may turn them off but not on when
 * the user's own config turned them off: a cloned repository must not hand the model tools its user
 * declined. A workspace value that would is replaced by the user's, with a warning.
 */
export function narrowToolSwitches(inputs: SettingInputs, settings: Partial<Record<"subAgents" | "notes", ResolvedSetting>>, warnings: string[]): void {
  const user = inputs.userFile;
  const workspace = inputs.workspaceFile;
  if (user === undefined || workspace === undefined) return;
  const fromWorkspace = (key: "subAgents" | "notes") => {
    const origin = settings[key]?.origin;
    return origin !== undefined && !Array.isArray(origin) && origin.source === "workspace config";
  };
  const keepUsers = <Key extends "subAgents" | "notes">(key: Key, value: NonNullable<ConfigFile[Key]>, tools: string): void => {
    settings[key] = { value, origin: { source: "user config", file: user.path } };
    warnings.push(
      `${workspace.path}: '${key}' turns on ${tools}, which your own settings turn off; left off ` +
        `(a workspace's config may only narrow your tools). Pass --${key === "notes" ? "notes <session|workspace>" : "sub-agents"}, or change "${key}" in ${user.path}.`,
    );
  };
  if (fromWorkspace("subAgents") && settings.subAgents?.value === true && user.config.subAgents === false) keepUsers("subAgents", false, "the task tool (sub-agents)");
  if (fromWorkspace("notes") && settings.notes?.value !== "off" && user.config.notes === "off") keepUsers("notes", "off", "the notes tools (notes_read, notes_write)");
}
