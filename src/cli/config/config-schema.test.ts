import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinToolNames } from "../../tools/builtin/index.js";
import { compressionPolicyNames } from "../../context/compression/index.js";
import { agentOptionsHelp } from "../agent-options-help.js";
import { commonOptions } from "../cli-options.js";
import { resolveConfig } from "../resolve-config.js";
import { configKeys } from "../../config/config-schema.js";
import { configSettings, invocationFlags, type SettingDeclaration } from "./config-settings.js";
import { knownToolNames } from "../../config/config-values.js";
import { validateConfigFile } from "./read-config-file.js";

function directories(files: { workspace?: object; user?: object } = {}): { workspace: string; environment: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), "ctxkit-schema-"));
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  mkdirSync(join(root, "config", "ctxkit"), { recursive: true });
  if (files.workspace) writeFileSync(join(workspace, "ctxkit.config.json"), JSON.stringify(files.workspace));
  if (files.user) writeFileSync(join(root, "config", "ctxkit", "config.json"), JSON.stringify(files.user));
  return { workspace, environment: { XDG_CONFIG_HOME: join(root, "config") } };
}

describe("the config schema and the settings table", () => {
  it("declare the same keys, and every flag once", () => {
    expect(Object.keys(configSettings).sort()).toEqual([...configKeys].sort());
    const flags = [...Object.values(configSettings as Record<string, SettingDeclaration>), ...invocationFlags].flatMap((setting) => (setting.flag ? [setting.flag] : []));
    expect(new Set(flags).size).toBe(flags.length);
    expect(Object.keys(commonOptions).sort()).toEqual([...flags].sort());
  });

  it("gives every flag a line in the agent commands' help, in its negated form for switches that default on", () => {
    const declarations: SettingDeclaration[] = [...Object.values(configSettings as Record<string, SettingDeclaration>), ...(invocationFlags as readonly SettingDeclaration[])];
    for (const setting of declarations) {
      if (!setting.flag || !setting.help || !setting.group) continue;
      expect(agentOptionsHelp()).toContain(setting.usage ?? `--${setting.flag}`);
    }
    for (const name of compressionPolicyNames) expect(agentOptionsHelp()).toContain(name);
  });

  it("names the same tools as the tool registry (web_fetch besides the workspace tools)", () => {
    expect([...knownToolNames].sort()).toEqual([...builtinToolNames, "web_fetch"].sort());
  });

  it("lists every key in the configuration docs, and no key the schema does not have", () => {
    const docs = readFileSync("docs/configuration.md", "utf8");
    for (const key of configKeys) expect(docs, key).toMatch(new RegExp(`\\| \`${key}\` \\|`));
    const listed = [...docs.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((match) => match[1]);
    expect(listed.filter((key) => !(configKeys as string[]).includes(key!))).toEqual([]);
  });
});

describe("validating a config file", () => {
  it("names the file and the key, and suggests the key that was meant", () => {
    expect(() => validateConfigFile({ modle: "qwen3" }, "/w/ctxkit.config.json")).toThrow("/w/ctxkit.config.json: unknown key 'modle' (did you mean 'model'?).");
    expect(() => validateConfigFile({ maxIterations: 0 }, "/u/config.json")).toThrow("/u/config.json: 'maxIterations' must be a positive whole number, got 0.");
    expect(() => validateConfigFile({ tools: ["read_file", 3] }, "/u/config.json")).toThrow("/u/config.json: 'tools' must be a list of strings (item 1), got 3.");
    expect(() => validateConfigFile({ statusBar: "replaced" }, "/u/config.json")).toThrow(
      "/u/config.json: 'statusBar': Unknown status bar mode 'replaced' (did you mean 'replace'?). Use one of: auto, replace, append, off.",
    );
  });

  it("names every unknown key before any bad value, and refuses a list of servers and an infinite budget", () => {
    expect(() => validateConfigFile({ modle: "qwen3", maxIterations: 0, colour: true }, "/u/config.json")).toThrow(
      "/u/config.json: unknown key 'modle' (did you mean 'model'?). /u/config.json: unknown key 'colour' (did you mean 'color'?). Known keys: provider,",
    );
    expect(() => validateConfigFile({ mcpServers: [{ command: "x" }] }, "/u/config.json")).toThrow(`/u/config.json: 'mcpServers' must be an object of servers, {"name": {"command": …} | {"url": …}}, got [{"command":"x"}].`);
    expect(() => validateConfigFile({ baseURL: "" }, "/u/config.json")).toThrow("/u/config.json: 'baseURL' must not be empty, got ''.");
    expect(() => validateConfigFile({ temperature: 2.5 }, "/u/config.json")).toThrow("/u/config.json: 'temperature' must be a number from 0 to 2, got 2.5.");
    expect(() => validateConfigFile({ maxIterations: 2.5 }, "/u/config.json")).toThrow("/u/config.json: 'maxIterations' must be a positive whole number, got 2.5.");
    const { workspace, environment } = directories();
    expect(() => resolveConfig({ workspace, "budget-cost": "Infinity" }, environment)).toThrow("--budget-cost must be a positive number, got 'Infinity'.");
    expect(() => resolveConfig({ workspace }, { ...environment, CTXKIT_REQUEST_TIMEOUT: "-1" })).toThrow("CTXKIT_REQUEST_TIMEOUT must be a number of seconds ≥ 0 (0 turns the limit off), got '-1'.");
  });

  it("accepts every behaviour setting, typed as the schema says", () => {
    const config = validateConfigFile(
      { budgetTokens: 5000, budgetCost: 0.5, budgetMode: "soft", notes: "workspace", skills: ["skills"], mcpServers: {}, compression: "none", statusBar: "append", statusBarTodo: false, subAgents: false, deferTools: "all", temperature: 0.2 },
      "/w/ctxkit.config.json",
    );
    expect(config).toMatchObject({ budgetTokens: 5000, notes: "workspace", statusBarTodo: false });
  });
});

describe("resolving settings", () => {
  it("takes every behaviour setting from a config file", () => {
    const { workspace, environment } = directories({
      workspace: { notes: "off", budgetTokens: 9000, compression: "none", statusBar: "off", statusBarCounter: false, subAgents: false, temperature: 0.3, maxOutputTokens: 512, projectInstructions: false, deferTools: "all" },
    });
    const config = resolveConfig({ workspace }, environment);
    expect(config).toMatchObject({
      notes: "off",
      budget: { tokens: 9000, mode: "hard" },
      compression: "none",
      statusBar: { mode: "off", counters: false, timestamps: true },
      subAgents: false,
      temperature: 0.3,
      maxOutputTokens: 512,
      projectInstructions: false,
      deferTools: "all",
    });
    expect(config.settings.notes).toEqual({ value: "off", origin: { source: "workspace config", file: join(workspace, "ctxkit.config.json") } });
  });

  it("uses the notes default of the README (the session's folder) when nothing sets it", () => {
    const { workspace, environment } = directories();
    expect(resolveConfig({ workspace }, environment)).toMatchObject({ notes: "session", sources: { notes: "default" } });
  });

  it("lets a workspace narrow the user's tools and budget, never widen them", () => {
    const { workspace, environment } = directories({ workspace: { tools: ["all"], budgetTokens: 50_000, budgetMode: "soft" }, user: { tools: ["read_file", "grep"], budgetTokens: 1000, budgetMode: "hard" } });
    const config = resolveConfig({ workspace }, environment);
    expect(config.tools).toEqual(["read_file", "grep"]);
    expect(config.warnings.join("\n")).toMatch(/'tools' names write_file, .*bash, which your own settings do not turn on/);
    expect(config.budget).toEqual({ tokens: 1000, mode: "hard" });
    // A flag is the user's own choice for this run.
    expect(resolveConfig({ workspace, tools: "all", "budget-tokens": "50000" }, environment)).toMatchObject({ tools: expect.arrayContaining(["bash"]), budget: { tokens: 50_000 } });
  });

  it("refuses the keys that choose where the API key is sent in a workspace's config, and reads them from the user's", () => {
    for (const [key, value] of [["provider", "anthropic"], ["vendor", "openrouter"], ["baseURL", "http://127.0.0.1:1/v1"], ["apiKey", "sk-repo"]] as const) {
      const { workspace, environment } = directories({ workspace: { [key]: value } });
      expect(() => resolveConfig({ workspace }, environment), key).toThrow(`'${key}' is not read from a workspace's config (a cloned repository could send your API key to a server it chose)`);
      const user = directories({ user: { [key]: value } });
      expect(resolveConfig({ workspace: user.workspace }, user.environment).settings[key]).toMatchObject({ value: key === "apiKey" ? "sk-repo" : value, origin: { source: "user config" } });
    }
  });

  it("names the flag or the variable a bad value came from", () => {
    const { workspace, environment } = directories();
    expect(() => resolveConfig({ workspace, "max-iterations": "zero" }, environment)).toThrow("--max-iterations must be a positive whole number, got 'zero'.");
    expect(() => resolveConfig({ workspace }, { ...environment, CTXKIT_COMPRESSION: "windowd" })).toThrow(
      "CTXKIT_COMPRESSION: Unknown compression policy 'windowd' (did you mean 'windowed'?).",
    );
    expect(() => resolveConfig({ workspace, tools: "read_file,bassh" }, environment)).toThrow("Unknown tool: bassh (did you mean bash?). It is named in --tools.");
  });

  it("offers the values a bad value is the first word of ('openai' is too far from 'openai-compatible' to be a typo)", () => {
    const { workspace, environment } = directories();
    expect(() => resolveConfig({ workspace, provider: "openai" }, environment)).toThrow("Unknown provider 'openai' (did you mean 'openai-compatible' or 'openai-responses'?). Use one of:");
    expect(() => resolveConfig({ workspace, provider: "gemini" }, environment)).toThrow(/Unknown provider 'gemini'\. Use one of:/);
  });
});
