import { mkdtemp, readFile, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { askWorkspaceTrust } from "./ask-workspace-trust.js";
import type { CliIo } from "./cli-io.js";
import type { AgentRunSetup } from "./prepare-agent-run.js";
import { resolveConfig, settingValues, type ResolvedConfig } from "./resolve-config.js";
import { createTerminalStyle } from "./terminal-style.js";

async function setup(userConfig?: Record<string, unknown>) {
  const home = await mkdtemp(join(tmpdir(), "ctxkit-trust-"));
  const workspace = join(home, "repo");
  await mkdir(workspace);
  if (userConfig) {
    await mkdir(join(home, ".config", "ctxkit"), { recursive: true });
    await writeFile(join(home, ".config", "ctxkit", "config.json"), JSON.stringify(userConfig));
  }
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  return { home, workspace, env, config: () => resolveConfig({ workspace }, env, { cwd: home }) };
}

/** What `run` and `chat` hand the question: the config, and the settings the library builds the agent from. */
function asSetup(config: ResolvedConfig): AgentRunSetup {
  return { config, inputs: { workspace: config.workspace, settings: settingValues(config.settings) }, notes: [] };
}

function terminalIo(isTTY: boolean): CliIo {
  const stdin = Object.assign(new PassThrough(), { isTTY });
  return { stdin } as unknown as CliIo;
}

function answers(...lines: string[]) {
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return { readLine: async () => lines.shift(), output, style: createTerminalStyle(false), text: () => text };
}

describe("workspace trust is the user's decision (issue 24)", () => {
  it("asks once on a terminal and records the answer per workspace in the user's config, keeping the rest of it", async () => {
    const { home, workspace, config } = await setup({ model: "m" });
    const first = config();
    expect(first.untrustedContent).toMatchObject({ trustWorkspace: false, trustDecided: false });
    const prompt = answers("maybe", "y");
    const firstSetup = asSetup(first);
    await askWorkspaceTrust(firstSetup, terminalIo(true), prompt);
    expect(prompt.text()).toContain(`Do you trust the files in ${workspace}?`);
    expect(prompt.text()).toContain("Please answer y or n.");
    // Seen in `ctxkit chat` on a 100-column terminal: the explanation's 118-column lines broke mid-word.
    const explanation = prompt.text().split(`${workspace}?\n`)[1]!.split("  [y]es")[0]!.split("\n");
    expect(explanation.length).toBeGreaterThan(3);
    expect(explanation.filter((line) => line.length >= 80)).toEqual([]);
    expect(first.untrustedContent.trustWorkspace).toBe(true);
    expect(firstSetup.inputs.settings?.trustWorkspace).toBe(true);
    const stored = JSON.parse(await readFile(join(home, ".config", "ctxkit", "config.json"), "utf8")) as Record<string, unknown>;
    expect(stored).toEqual({ model: "m", trustedWorkspaces: { [workspace]: true } });
    // The next run reads the answer and asks nothing.
    const next = config();
    expect(next.untrustedContent).toMatchObject({ trustWorkspace: true, trustDecided: true });
    const again = answers();
    await askWorkspaceTrust(asSetup(next), terminalIo(true), again);
    expect(again.text()).toBe("");
  });

  it("records a no, and asks nothing without a terminal (the workspace stays untrusted)", async () => {
    const { workspace, config, home } = await setup();
    const quiet = answers("y");
    const piped = config();
    await askWorkspaceTrust(asSetup(piped), terminalIo(false), quiet);
    expect(quiet.text()).toBe("");
    expect(piped.untrustedContent.trustWorkspace).toBe(false);
    const declined = config();
    await askWorkspaceTrust(asSetup(declined), terminalIo(true), answers("n"));
    expect(declined.untrustedContent.trustWorkspace).toBe(false);
    expect(JSON.parse(await readFile(join(home, ".config", "ctxkit", "config.json"), "utf8"))).toEqual({ trustedWorkspaces: { [workspace]: false } });
  });

  it("--trust-workspace decides for automation; a recorded no wins over the user's global trustWorkspace", async () => {
    const { workspace, env, home } = await setup({ trustWorkspace: true, trustedWorkspaces: { [join(tmpdir(), "elsewhere")]: false } });
    expect(resolveConfig({ workspace, "trust-workspace": true }, env, { cwd: home }).untrustedContent.trustWorkspace).toBe(true);
    expect(resolveConfig({ workspace }, env, { cwd: home }).untrustedContent.trustWorkspace).toBe(true);
    await writeFile(join(home, ".config", "ctxkit", "config.json"), JSON.stringify({ trustWorkspace: true, trustedWorkspaces: { [workspace]: false } }));
    expect(resolveConfig({ workspace }, env, { cwd: home }).untrustedContent).toMatchObject({ trustWorkspace: false, trustDecided: true });
  });
});
