// The agent `ctxkit run` builds, from a library: the workspace's ctxkit.config.json (skills, MCP
// servers, compression, the status bar, a budget, notes …) and a task. `createAgentFromConfig` is
// the function the CLI itself calls, so with the same settings both send the same request bytes.
//
//   CTXKIT_BASE_URL=http://127.0.0.1:11434/v1 CTXKIT_MODEL=qwen3:8b [CTXKIT_TRUST_WORKSPACE=1] [CTXKIT_YES=1] node examples/.build/agent-like-cli.js "list the TODOs"
//
// Where the API key is sent is the user's choice, never a repository's: like `ctxkit run`, the
// example reads the base URL, the model and the key from the environment, not from the workspace file.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createAgentFromConfig, type ConfigFile } from "ctxkit";

const workspace = resolve(process.env.CTXKIT_WORKSPACE ?? ".");
const task = process.argv.slice(2).join(" ").trim() || "Summarise this workspace in one paragraph.";

let settings: ConfigFile = {};
try {
  settings = JSON.parse(readFileSync(join(workspace, "ctxkit.config.json"), "utf8")) as ConfigFile;
} catch {
  // No config file: every setting has its default.
}
// A workspace's MCP servers are the repository's, not yours: `ctxkit run` connects one only after you
// approved its exact definition, and then treats its tool descriptions and read-only hints as
// untrusted data. This example has no one to ask, so it takes the file as your approval; the mark is the same.
if (settings.mcpServers) {
  const marked = Object.entries(settings.mcpServers).map(([name, server]) => [name, { ...(server as object), trust: "untrusted" }]);
  settings = { ...settings, mcpServers: Object.fromEntries(marked) };
}
const environment = process.env;
settings = {
  ...settings,
  ...(environment.CTXKIT_BASE_URL ? { baseURL: environment.CTXKIT_BASE_URL } : {}),
  ...(environment.CTXKIT_MODEL ? { model: environment.CTXKIT_MODEL } : {}),
  ...(environment.CTXKIT_API_KEY ? { apiKey: environment.CTXKIT_API_KEY } : {}),
  // Whether the workspace's files are yours is your decision too (ctxkit run --trust-workspace).
  ...(environment.CTXKIT_TRUST_WORKSPACE === "1" ? { trustWorkspace: true } : {}),
  // Approve every call that asks, as `ctxkit run --yes` (the guard's exact-call questions are still declined here).
  ...(environment.CTXKIT_YES === "1" ? { yes: true } : {}),
};

const configured = await createAgentFromConfig({
  workspace,
  settings,
  // No person to ask here: a call that needs a confirmation is declined (as `ctxkit run` without a terminal).
  confirmToolCall: async () => false,
});
for (const warning of [...configured.skills.warnings, ...configured.mcp.warnings]) console.error(`warning: ${warning.message}`);
try {
  for await (const event of configured.agent.run(task)) {
    if (event.type === "tool_call_start") console.log(`→ ${event.name}`);
    if (event.type === "run_end") {
      console.log(`[${event.stopReason}] ${event.iterations} model call(s), session ${configured.session.id}`);
      if (event.stopReason === "final_answer") console.log(event.finalText);
    }
  }
} finally {
  await configured.close((note) => console.error(note));
}
