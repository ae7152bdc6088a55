import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createToolsFromConfig } from "../config/create-agent-from-config.js";
import { resolveConfig } from "./resolve-config.js";

function directories(): { workspace: string; configHome: string } {
  const root = mkdtempSync(join(tmpdir(), "ctxkit-config-"));
  const workspace = join(root, "workspace");
  const configHome = join(root, "config");
  mkdirSync(workspace);
  mkdirSync(join(configHome, "ctxkit"), { recursive: true });
  return { workspace, configHome };
}

describe("web_fetch configuration", () => {
  it("offers web_fetch by default, with loopback fetching off", () => {
    const { workspace, configHome } = directories();
    const config = resolveConfig({ workspace }, { XDG_CONFIG_HOME: configHome });
    expect(config.tools).toContain("web_fetch");
    expect(config.allowLoopbackFetch).toBe(false);
    expect(createToolsFromConfig(config).map((tool) => tool.name)).toContain("web_fetch");
  });

  it("turns loopback fetching on from the flag, the environment or the user's config", () => {
    const { workspace, configHome } = directories();
    expect(resolveConfig({ workspace, "allow-loopback-fetch": true }, { XDG_CONFIG_HOME: configHome })).toMatchObject({
      allowLoopbackFetch: true,
      sources: { allowLoopbackFetch: "flag" },
    });
    expect(resolveConfig({ workspace }, { XDG_CONFIG_HOME: configHome, CTXKIT_ALLOW_LOOPBACK_FETCH: "1" }).allowLoopbackFetch).toBe(true);
    writeFileSync(join(configHome, "ctxkit", "config.json"), JSON.stringify({ allowLoopbackFetch: true }));
    expect(resolveConfig({ workspace }, { XDG_CONFIG_HOME: configHome })).toMatchObject({ allowLoopbackFetch: true, sources: { allowLoopbackFetch: "user config" } });
    expect(resolveConfig({ workspace, "allow-loopback-fetch": false }, { XDG_CONFIG_HOME: configHome }).allowLoopbackFetch).toBe(false);
  });

  it("does not let a workspace's config turn loopback fetching on", () => {
    const { workspace, configHome } = directories();
    writeFileSync(join(workspace, "ctxkit.config.json"), JSON.stringify({ allowLoopbackFetch: true }));
    expect(() => resolveConfig({ workspace }, { XDG_CONFIG_HOME: configHome })).toThrow(/'allowLoopbackFetch' is not read from a workspace's config/);
  });

  it("rejects a config value that is not a boolean", () => {
    const { workspace, configHome } = directories();
    writeFileSync(join(configHome, "ctxkit", "config.json"), JSON.stringify({ allowLoopbackFetch: "yes" }));
    expect(() => resolveConfig({ workspace }, { XDG_CONFIG_HOME: configHome })).toThrow(/'allowLoopbackFetch' must be a boolean/);
  });
});
