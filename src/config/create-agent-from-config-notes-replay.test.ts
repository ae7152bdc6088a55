import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { NotesSnapshot } from "../tools/notes/index.js";
import type { ModelRequest } from "../types/index.js";
import { createAgentFromConfig } from "./create-agent-from-config.js";

/** Runs one answer with `notesReplay`; what the notes replay was shown, and the first request. */
async function runWithReplay(notes: "session" | "workspace", starting: NotesSnapshot) {
  const workspace = await mkdtemp(join(tmpdir(), "ctxkit-notes-replay-"));
  const shown: NotesSnapshot[] = [];
  const requests: ModelRequest[] = [];
  const configured = await createAgentFromConfig({
    workspace,
    settings: { model: "m", notes },
    provider: createScriptedProvider({ turns: (request) => (requests.push(request), { text: "Done." }) }),
    notesReplay: { startingNotes: async (current) => (shown.push(await current()), starting) },
  });
  try {
    expect((await configured.agent.run("Go.").result()).finalText).toBe("Done.");
  } finally {
    await configured.close();
  }
  const notesPath = join(configured.config.dataDir, "notes", `${configured.session.id}.md`);
  return { shown, firstRequest: JSON.stringify(requests[0]), notesPath };
}

// A durable worker passes notesReplay (durable-builders.ts): the run's session notes are put back as it started them.
describe("createAgentFromConfig's notesReplay", () => {
  it("puts the session's notes back as the run started them before its first request", async () => {
    const { shown, firstRequest, notesPath } = await runWithReplay("session", { notes: "Restored note.\n", provenance: null });
    expect(shown).toEqual([{ notes: null, provenance: null }]);
    expect(await readFile(notesPath, "utf8")).toBe("Restored note.\n");
    expect(firstRequest).toContain("notes: 15 characters in the session's notes file");
  });

  it("leaves the workspace's NOTES.md alone (the person's file too: never put back)", async () => {
    const { shown } = await runWithReplay("workspace", { notes: "Not this.\n", provenance: null });
    expect(shown).toEqual([]);
  });
});
