import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "./resolve-config.js";

function directories(user: object, workspaceConfig: object): { workspace: string; configHome: string } {
  const root = mkdtempSync(join(tmpdir(), "ctxkit-config-"));
  const workspace = join(root, "workspace");
  const configHome = join(root, "config");
  mkdirSync(workspace);
  mkdirSync(join(configHome, "ctxkit"), { recursive: true });
  writeFileSync(join(configHome, "ctxkit", "config.json"), JSON.stringify(user));
  writeFileSync(join(workspace, "ctxkit.config.json"), JSON.stringify(workspaceConfig));
  return { workspace, configHome };
}

// The outside battery of issue 30 (item 8): with "subAgents": false and "notes": "off" in the user's
// config, a workspace's "subAgents": true offered the model the task tool, and "notes": "session"
// the notes tools; the workspace's config came first.
describe("settings that add tools, from a workspace's config", () => {
  it("do not turn on the task tool the user's config turned off", () => {
    const { workspace, configHome } = directories({ subAgents: false }, { subAgents: true });
    const config = resolveConfig({ workspace }, { XDG_CONFIG_HOME: configHome });
    expect(config.subAgents).toBe(false);
    expect(config.sources.subAgents).toBe("user config");
    expect(config.warnings.join("\n")).toMatch(/'subAgents' turns on the task tool \(sub-agents\), which your own settings turn off; left off/);
  });

  it("do not turn on the notes tools the user's config turned off, in either place", () => {
    for (const notes of ["session", "workspace"]) {
      const { workspace, configHome } = directories({ notes: "off" }, { notes });
      const config = resolveConfig({ workspace }, { XDG_CONFIG_HOME: configHome });
      expect(config.notes).toBe("off");
      expect(config.warnings.join("\n")).toContain("'notes' turns on the notes tools");
    }
  });

  it("may still turn them off, and a flag still turns them on", () => {
    const off = directories({}, { subAgents: false, notes: "off" });
    expect(resolveConfig({ workspace: off.workspace }, { XDG_CONFIG_HOME: off.configHome })).toMatchObject({ subAgents: false, notes: "off" });
    const flagged = directories({ subAgents: false, notes: "off" }, { subAgents: false });
    expect(resolveConfig({ workspace: flagged.workspace, "sub-agents": true, notes: "session" }, { XDG_CONFIG_HOME: flagged.configHome })).toMatchObject({ subAgents: true, notes: "session" });
  });

  it("choose the notes' place when the user's config leaves notes on", () => {
    const { workspace, configHome } = directories({ notes: "session" }, { notes: "workspace" });
    const config = resolveConfig({ workspace }, { XDG_CONFIG_HOME: configHome });
    expect(config.notes).toBe("workspace");
    expect(config.warnings).toEqual([]);
  });
});
