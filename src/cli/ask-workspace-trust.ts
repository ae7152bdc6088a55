import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { makePrivateDirectorySync, writePrivateFileSync } from "../session/private-storage.js";
import { readJsonFileText } from "../config/read-json-file-text.js";
import { hasTerminalInput, type CliIo } from "./cli-io.js";
import type { AgentRunSetup } from "./prepare-agent-run.js";
import type { TerminalStyle } from "./terminal-style.js";

/**
 * Workspace trust is the user's decision, as in VS Code and Claude Code (issue 24): on a terminal,
 * the first run in a workspace the user has not decided about asks once, and the answer is recorded
 * per workspace path in the user's config (`trustedWorkspaces`). Without a terminal nothing is asked:
 * the workspace stays untrusted unless --trust-workspace says otherwise.
 */
export async function askWorkspaceTrust(setup: AgentRunSetup, io: CliIo, options: { readLine: () => Promise<string | undefined>; output: NodeJS.WritableStream; style: TerminalStyle }): Promise<void> {
  const { config } = setup;
  if (config.untrustedContent.trustDecided || !hasTerminalInput(io)) return;
  const { output, style } = options;
  output.write(
    `\n${style.yellow("?")} Do you trust the files in ${style.bold(config.workspace)}?\n` +
      // Lines under 80 columns: a terminal of 80 (or the 100 of a split pane) cut the longer ones mid-word.
      "  Trusted: its files are shown to the model as they are. Not trusted: they are\n" +
      "  data, and while the model has read one (or from the start, when it has an\n" +
      "  AGENTS.md, CLAUDE.md, skills or MCP servers of its own), every command or\n" +
      "  write asks you first (--yes and allow do not cover it). Answer no for a\n" +
      "  repository you did not write.\n",
  );
  while (true) {
    output.write("  [y]es, I trust this workspace / [n]o: ");
    const answer = (await options.readLine())?.trim().toLowerCase();
    if (answer === undefined) {
      output.write("\n  not trusted (no answer could be read); asked again next time\n");
      return;
    }
    if (answer === "y" || answer === "yes" || answer === "n" || answer === "no") {
      const trusted = answer.startsWith("y");
      recordWorkspaceTrust(config.userConfigPath, config.workspace, trusted);
      config.untrustedContent.trustWorkspace = trusted;
      config.untrustedContent.trustDecided = true;
      // The library builds the agent from the settings: the answer goes there too.
      setup.inputs.settings = { ...setup.inputs.settings, trustWorkspace: trusted };
      output.write(`  ${trusted ? "trusted" : "not trusted"}; recorded in ${config.userConfigPath} (trustedWorkspaces)\n`);
      return;
    }
    output.write(`  ${style.dim("Please answer y or n.")}\n`);
  }
}

/** Records the answer for one workspace in the user's config, keeping everything else in it. */
export function recordWorkspaceTrust(userConfigPath: string, workspace: string, trusted: boolean): void {
  const current: Record<string, unknown> = existsSync(userConfigPath) ? (JSON.parse(readJsonFileText(userConfigPath)) as Record<string, unknown>) : {};
  const recorded = typeof current.trustedWorkspaces === "object" && current.trustedWorkspaces !== null ? (current.trustedWorkspaces as Record<string, boolean>) : {};
  makePrivateDirectorySync(dirname(userConfigPath));
  writePrivateFileSync(userConfigPath, `${JSON.stringify({ ...current, trustedWorkspaces: { ...recorded, [workspace]: trusted } }, null, 2)}\n`);
}
