import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadProjectInstructions } from "./project-instructions.js";

async function workspaceWith(agentsMd: string | Buffer): Promise<string> {
  const workspace = await mkdtemp(join(tmpdir(), "ctxkit-instructions-"));
  await writeFile(join(workspace, "AGENTS.md"), agentsMd);
  return workspace;
}

describe("loadProjectInstructions", () => {
  it("drops a leading byte-order mark (an AGENTS.md saved by Windows PowerShell 5.1)", async () => {
    const { text } = loadProjectInstructions(await workspaceWith("\uFEFFUse pnpm.\n"));
    expect(text).toContain('<instructions file="AGENTS.md">\nUse pnpm.\n</instructions>');
    expect(text).not.toContain("\uFEFF");
  });
});
