import { link, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDirectorySwapper } from "../../testing/directory-swapper.js";
import { createWorkspaceTools } from "../../tools/builtin/index.js";
import type { Tool } from "../../tools/tool.js";
import { ToolError } from "../../types/tool-error.js";
import { BatteryTally, runTrial, type BatteryResult } from "./hardening-trial.js";
import { makeDirectoryTree } from "../../types/make-directory-tree.js";

const secret = "SECRET-OUTSIDE-7f3a";
/** A name only the outside folder has: a listing that shows it listed outside. */
const outsideOnlyName = "only-outside-91c.txt";

/** Ways a model has spelled "outside the workspace" (each tried with every tool). */
function attackPaths(outside: string): string[] {
  return [
    "../outside/secret.txt",
    `${outside}/secret.txt`,
    "link-out/secret.txt",
    "link-file",
    "link-abs/secret.txt",
    "./../outside/secret.txt",
    "dir/../../outside/secret.txt",
    "dir/../link-out/secret.txt",
    "link-out/../outside/secret.txt",
    "..\\outside\\secret.txt",
    "%2e%2e/outside/secret.txt",
    "\uff0e\uff0e/outside/secret.txt",
    "~/../outside/secret.txt",
    `/proc/self/root${outside}/secret.txt`,
    "/proc/self/cwd/../outside/secret.txt",
    "dir/link-up/secret.txt",
    "loop/secret.txt",
    "hard.txt",
    "a.txt\u0000/../../outside/secret.txt",
    `file://${outside}/secret.txt`,
    `${"./".repeat(2_000)}../outside/secret.txt`,
    "link-out",
    "..",
    "/",
    `${outside}`,
    "link-out/new.txt",
    "../outside/new.txt",
  ];
}

type Attempt = { tool: string; args: Record<string, unknown> };

function attempts(path: string): Attempt[] {
  return [
    { tool: "read_file", args: { path } },
    { tool: "read_file", args: { path, offset: 1, limit: 5 } },
    { tool: "write_file", args: { path, content: "written by the model\n" } },
    { tool: "write_file", args: { path: `${path}/new.txt`, content: "x\n" } },
    { tool: "edit_file", args: { path, old_string: "OUTSIDE", new_string: "changed" } },
    { tool: "list_dir", args: { path } },
    { tool: "glob", args: { pattern: `${path}/**` } },
    { tool: "glob", args: { pattern: "**/*.txt", path } },
    { tool: "grep", args: { pattern: "SECRET", path } },
    { tool: "grep", args: { pattern: "S.CRET-OUT", path, glob: "**" } },
  ];
}

/**
 * Workspace escapes: every tool with every spelling of a path outside (dot-dot, absolute, links to
 * outside, a hard link, /proc, encodings), then a race in which another process swaps a directory
 * for a link to outside while reads and writes run. An escape is a result showing outside content
 * or names, or any change to the outside folder.
 */
export async function runWorkspaceEscapeBattery(attemptCount: number, raceCalls: number): Promise<BatteryResult> {
  const tally = new BatteryTally("workspace-escapes");
  const root = await realpath(await mkdtemp(join(tmpdir(), "ctxkit-hardening-escape-")));
  const workspace = join(root, "workspace");
  const outside = join(root, "outside");
  try {
    await prepare(workspace, outside);
    const tools = new Map(createWorkspaceTools({ workspace }).map((tool) => [tool.name, tool]));
    const all = attackPaths(outside).flatMap(attempts);
    const before = await snapshot(outside);
    for (let index = 0; index < attemptCount; index += 1) {
      const attempt = all[index % all.length]!;
      const outcome = await runTrial(() => call(tools.get(attempt.tool)!, attempt.args), 20_000);
      tally.trial(outcome, `${attempt.tool} ${JSON.stringify(attempt.args).slice(0, 120)}`);
      const content = outcome.value ?? "";
      if (content.includes(secret) || content.includes(outsideOnlyName)) tally.fail("escapes", `${attempt.tool} ${JSON.stringify(attempt.args).slice(0, 120)} returned outside content`);
      else tally.outcome(content.startsWith("refused:") ? "refused" : "answered from inside");
      const after = await snapshot(outside);
      if (after !== before) {
        tally.fail("escapes", `${attempt.tool} ${JSON.stringify(attempt.args).slice(0, 120)} changed the outside folder`);
        await prepareOutside(outside);
      }
    }
    await race(workspace, outside, tools, raceCalls, tally);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return tally.finish();
}

async function prepare(workspace: string, outside: string): Promise<void> {
  await makeDirectoryTree(join(workspace, "dir"));
  await prepareOutside(outside);
  await writeFile(join(workspace, "a.txt"), "inside\n");
  await writeFile(join(workspace, "dir", "file.txt"), "inside\n");
  await symlink(outside, join(workspace, "link-out"));
  await symlink(join(outside, "secret.txt"), join(workspace, "link-file"));
  await symlink(outside, join(workspace, "link-abs"));
  await symlink("../..", join(workspace, "dir", "link-up"));
  await symlink("loop", join(workspace, "loop"));
  await link(join(outside, "hard-target.txt"), join(workspace, "hard.txt"));
}

async function prepareOutside(outside: string): Promise<void> {
  await rm(outside, { recursive: true, force: true });
  await makeDirectoryTree(outside);
  await writeFile(join(outside, "secret.txt"), `${secret}\n`);
  // Reading a hard link is reading a file of the workspace (both names are the same file); only a
  // write through it reaches outside, and the snapshot sees that.
  await writeFile(join(outside, "hard-target.txt"), "hard link target\n");
  await writeFile(join(outside, outsideOnlyName), "x\n");
}

/** The outside folder's names and contents, to see any write that landed there. */
async function snapshot(outside: string): Promise<string> {
  const names = (await readdir(outside)).sort();
  const contents = await Promise.all(names.map((name) => readFile(join(outside, name), "utf8").catch(() => "?")));
  return JSON.stringify([names, contents]);
}

/** A tool call as the loop makes it; a ToolError is the model's error result (a refusal), not a crash. */
async function call(tool: Tool, args: Record<string, unknown>): Promise<string> {
  try {
    const output = await tool.execute(args as never, { signal: AbortSignal.timeout(15_000), toolCallId: "call" });
    return typeof output === "string" ? output : output.content;
  } catch (error) {
    if (error instanceof ToolError) return `refused: ${error.message}`;
    throw error;
  }
}

async function race(workspace: string, outside: string, tools: Map<string, Tool>, calls: number, tally: BatteryTally): Promise<void> {
  await writeFile(join(outside, "file.txt"), `${secret}\n`);
  const before = await snapshot(outside);
  const swapper = await startDirectorySwapper(join(workspace, "dir"), outside);
  let escapes = 0;
  let refused = 0;
  try {
    for (let done = 0; done < calls; ) {
      const batch = Math.min(10, calls - done);
      const work = Array.from({ length: batch }, (_, index) => {
        const number = done + index;
        if (number % 5 === 3) return call(tools.get("write_file")!, { path: `dir/new-${number}.txt`, content: "written\n" });
        if (number % 5 === 4) return call(tools.get("write_file")!, { path: "dir/file.txt", content: "inside\n" });
        return call(tools.get("read_file")!, { path: "dir/file.txt" });
      });
      const outcome = await runTrial(() => Promise.all(work), 30_000);
      tally.trial(outcome, `race batch at call ${done}`);
      for (const content of outcome.value ?? []) {
        if (content.includes(secret)) escapes += 1;
        if (content.startsWith("refused:")) refused += 1;
      }
      done += batch;
    }
  } finally {
    swapper.stop();
  }
  // The swapper may have left the link in place; what matters is what landed in the outside folder.
  const after = await snapshot(outside);
  const landed = after === before ? 0 : Math.max(1, (await readdir(outside)).filter((name) => name.startsWith("new-")).length);
  if (escapes + landed > 0) tally.fail("escapes", `race: ${escapes} reads returned outside content, ${landed} writes landed outside`, escapes + landed);
  tally.namedCase(`symlink-swap race (${calls} calls)`, escapes + landed === 0, `${refused} calls refused while the link was in place, ${calls - refused} answered from inside`);
}
