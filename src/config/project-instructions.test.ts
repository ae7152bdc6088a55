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

  it("cuts a file over 32,000 bytes before a multi-byte character the limit splits, not into U+FFFD", async () => {
    // 31,999 ASCII bytes, then "é" (2 bytes) across the 32,000-byte limit.
    const { text } = loadProjectInstructions(await workspaceWith(`${"a".repeat(31_999)}é and more`));
    expect(text).not.toContain("\uFFFD");
    expect(text).toContain(`${"a".repeat(31_999)}\n[… cut: the file has 32010 bytes, only the first 32000 are shown]`);
  });
});
