import { join } from "node:path";
import { createCompression } from "../../src/context/compression/index.js";
import { createResearchModel, fetchTool } from "../../src/context/compression/test-support/research-task.js";
import { createStatusBar } from "../../src/context/status-bar/index.js";
import { createAgent } from "../../src/loop/create-agent.js";
import { createTestClock } from "../../src/loop/test-support.js";
import { createSessionStore, startSession } from "../../src/session/index.js";

/**
 * Writes a real ctxkit session through the agent loop, with a scripted research model (its pages
 * overflow a 20k window, so the compression policy compacts) and the status bar as the tail: the
 * session `ctxkit view` is tested on (with `plain`, the same task without either: a run with no cache break). Stored where `ctxkit view <id>` looks, `<workspace>/.ctxkit/sessions`.
 */
export async function writeViewerSession(workspace: string, options: { plain?: boolean } = {}): Promise<{ id: string; file: string }> {
  const store = createSessionStore({ directory: join(workspace, ".ctxkit", "sessions") });
  const system = "You research OpenAI's co-founders.";
  // plain: a window the pages fit in and no status bar, so every call extends the one before (no break).
  const provider = createResearchModel(options.plain ? 1_000_000 : 20_000);
  const started = await startSession(store, { system, tools: [fetchTool], provider });
  const compression = createCompression({ contextWindow: 20_000 });
  const statusBar = createStatusBar({ mode: "replace", environment: { workingDirectory: "/work/research", os: "linux", shell: "/bin/bash", runtime: "node v20" } });
  const agent = createAgent({
    provider,
    system,
    tools: [fetchTool],
    session: started.session,
    context: options.plain ? [] : [compression, statusBar],
    runtime: { clock: createTestClock("2025-09-14T10:30:00.000Z") },
  });
  await agent.run("Identify OpenAI's co-founders and track where each of them works now.").result();
  await started.session.close();
  return { id: started.session.id, file: store.path(started.session.id) };
}
