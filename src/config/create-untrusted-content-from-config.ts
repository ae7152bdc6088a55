import type { ContextPolicy } from "../context/context-policy.js";
import { createRoleDiscipline } from "../context/external-content/create-role-discipline.js";
import { createSourceTags } from "../context/external-content/create-source-tags.js";
import { dirname, join } from "node:path";
import { createProtectedPaths } from "../security/create-protected-paths.js";
import { createRuntimeGuardPolicy } from "../security/create-runtime-guard-policy.js";
import { notesWriteToolName } from "../tools/notes/create-notes.js";
import type { AgentConfig } from "./agent-config.js";

/**
 * The CLI's defences against injected instructions: external results (and, unless the user trusts
 * the workspace, workspace results) tagged as data with the system-prompt notice, and the runtime
 * guard: while such content is in the context (or `untrustedTools`, a workspace's MCP tools, are
 * offered), every write, command and send asks about its exact call (the user's `allowUnderTaint` excepted). Tools named in `externalTools` count as external for both.
 */
export function createUntrustedContentFromConfig(
  config: AgentConfig,
  options: { untrustedTools?: readonly string[]; untrustedSystemSources?: readonly string[] } = {},
): ContextPolicy[] {
  const { trustWorkspace, externalTools, notice, allowUnderTaint } = config.untrustedContent;
  return [
    createSourceTags({ tagWorkspace: !trustWorkspace, externalTools, systemSection: notice }),
    createRoleDiscipline(),
    // The notes carry what they were written from (a note written while the context was untrusted is
    // read back as untrusted), so writing one needs no question of its own.
    // A workspace's MCP servers' tool descriptions are their words in every request: the context is
    // untrusted from the first call while they are offered.
    createRuntimeGuardPolicy({
      externalTools,
      allowUnderTaint: [...allowUnderTaint, notesWriteToolName],
      untrustedTools: options.untrustedTools ?? [],
      // So are an untrusted workspace's AGENTS.md and skill descriptions in the system prompt.
      untrustedSystemSources: options.untrustedSystemSources ?? [],
    }),
    // Writes through file tools to ctxkit's own settings, data or skill folders, by resolved path.
    createProtectedPaths({
      workspace: config.workspace,
      places: [
        { path: join(config.workspace, "ctxkit.config.json"), what: "the workspace's ctxkit.config.json" },
        ...(config.userConfigPath ? [{ path: dirname(config.userConfigPath), what: "your ctxkit user config folder (config.json, skills)" }] : []),
        { path: config.dataDir, what: "ctxkit's data folder (sessions, notes, skills)" },
        ...[join(config.workspace, ".ctxkit", "skills"), join(config.workspace, ".agents", "skills"), join(config.workspace, ".claude", "skills"), ...config.skillDirectories].map((path) => ({ path, what: "a skills folder" })),
      ],
    }),
  ];
}
