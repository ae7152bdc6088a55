import { activeSkillNames } from "../skills/index.js";
import type { ConfiguredAgent } from "./create-agent-from-config.js";
import { recordSkillUse } from "./skill-use-record.js";

/**
 * Ends what a command's agent holds, in the order that loses nothing: the workspace's record of the
 * skills it used, the session file, then the MCP servers — whose processes end even when the
 * session file cannot be closed. `warn` gets a note that did not stop the closing.
 */
export async function closeAgentRun(run: Pick<ConfiguredAgent, "agent" | "session" | "mcp">, dataDir: string, warn: (note: string) => void): Promise<void> {
  await recordSkillUse(dataDir, activeSkillNames(run.agent.messages)).catch((error: unknown) =>
    warn(`could not record which skills were used: ${error instanceof Error ? error.message : String(error)}`),
  );
  try {
    await run.session.close();
  } finally {
    await run.mcp.close();
  }
}
