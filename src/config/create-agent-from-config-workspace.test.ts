import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createAgentFromConfig, type CreateAgentFromConfigOptions } from "./create-agent-from-config.js";

// A library user's first mistake: no workspace, or a relative one. It failed only after writing a
// `.ctxkit` folder under the process's cwd (relative), or as node:path's TypeError (missing).
describe("createAgentFromConfig's workspace", () => {
  it.each([undefined, "relative/ws", ""])("a workspace of %j is option_invalid before anything is written", async (workspace) => {
    const cwd = process.cwd();
    const scratch = await mkdtemp(join(tmpdir(), "ctxkit-config-workspace-"));
    process.chdir(scratch);
    try {
      const options = { workspace, settings: { model: "m" }, provider: createScriptedProvider({ turns: ["x"] }) } as unknown as CreateAgentFromConfigOptions;
      await expect(createAgentFromConfig(options)).rejects.toMatchObject({
        name: "ConfigError",
        code: "option_invalid",
        message: expect.stringContaining("createAgentFromConfig needs `workspace`: the absolute path"),
      });
      expect(existsSync(join(scratch, "relative"))).toBe(false);
      expect(existsSync(join(scratch, ".ctxkit"))).toBe(false);
    } finally {
      process.chdir(cwd);
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

// A cost limit needs the model's prices; the refusal came after the data directory (.ctxkit/, its
// .gitignore) had been made in the workspace.
describe("createAgentFromConfig's cost limit", () => {
  it.each([
    ["the settings' model", { model: "my-local-model", baseURL: "http://127.0.0.1:9/v1", budgetCost: 1 }, undefined],
    ["the given provider's model", { budgetCost: 1 }, "my-local-model"],
  ])("refuses a model the pricing catalog does not list (%s) before it writes anything", async (_case, settings, providerModel) => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-config-budget-"));
    try {
      const provider = providerModel === undefined ? {} : { provider: createScriptedProvider({ turns: ["x"], model: providerModel }) };
      await expect(createAgentFromConfig({ workspace, settings, ...provider })).rejects.toMatchObject({ name: "ConfigError", code: "model_unpriced", message: expect.stringContaining("'my-local-model'") });
      expect(await readdir(workspace)).toEqual([]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
