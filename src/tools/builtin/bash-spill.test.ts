import { mkdtemp, readFile, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBashTool } from "./bash.js";

const context = (toolCallId: string) => ({ signal: new AbortController().signal, toolCallId });

// The trial that found it: a 50 MB tool result was budgeted only once whole (2.6 s stall, 535 MB RSS).
// bash keeps its head and tail while the output streams; the whole of it goes to a file as it arrives.
describe("bash output over its budget", () => {
  it("is cut while it streams, and the whole output is saved in the spill directory, which the result names", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-bash-spill-"));
    const spillDirectory = join(workspace, ".ctxkit", "tool-output");
    const bash = createBashTool({ workspace, maxOutputBytes: 1024, spillDirectory });
    // 4,000 numbered lines (~ 50 KB), a marker in the middle the cut result does not show.
    const output = (await bash.execute({ command: "seq 1 2000; echo MIDDLE-MARKER; seq 2001 4000" }, context("call_1"))) as { content: string };
    expect(output.content.length).toBeLessThan(1500);
    expect(output.content).not.toContain("MIDDLE-MARKER");
    const [file] = await readdir(spillDirectory);
    expect(file).toMatch(/^bash-call_1-\w+\.log$/);
    const path = join(spillDirectory, file!);
    expect(output.content).toContain(`saved in ${path}`);
    const saved = await readFile(path, "utf8");
    // The spill holds what the command printed (secrets too): private to the user (issue 24).
    expect((await stat(spillDirectory)).mode & 0o777).toBe(0o700);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(saved).toBe(`${Array.from({ length: 2000 }, (_, index) => index + 1).join("\n")}\nMIDDLE-MARKER\n${Array.from({ length: 2000 }, (_, index) => index + 2001).join("\n")}\n`);
  });

  it("saves at most maxSpillBytes and says how much came", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-bash-spill-"));
    const bash = createBashTool({ workspace, maxOutputBytes: 1024, spillDirectory: join(workspace, "spill"), maxSpillBytes: 10_000 });
    const output = (await bash.execute({ command: "head -c 200000 /dev/zero | tr '\\\\0' x" }, context("call_2"))) as { content: string };
    expect(output.content).toContain("its first 10000 of 200000 bytes are saved");
    const [file] = await readdir(join(workspace, "spill"));
    expect((await readFile(join(workspace, "spill", file!))).length).toBe(10_000);
  });

  it("writes no file for output within the budget, and none without a spill directory", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-bash-spill-"));
    const spillDirectory = join(workspace, "spill");
    const small = (await createBashTool({ workspace, maxOutputBytes: 1024, spillDirectory }).execute({ command: "echo small" }, context("call_3"))) as { content: string };
    expect(small.content).toBe("exit code: 0\nsmall\n");
    await expect(readdir(spillDirectory)).rejects.toMatchObject({ code: "ENOENT" });
    const big = (await createBashTool({ workspace, maxOutputBytes: 1024 }).execute({ command: "seq 1 4000" }, context("call_4"))) as { content: string };
    expect(big.content).not.toContain("saved in");
  });
});
