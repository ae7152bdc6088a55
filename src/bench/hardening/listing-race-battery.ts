import { lstat, mkdtemp, realpath, rename, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDirectorySwapper, type SwapMode } from "../../testing/directory-swapper.js";
import { createGlobTool } from "../../tools/builtin/glob.js";
import { createGrepTool } from "../../tools/builtin/grep.js";
import { createListDirTool } from "../../tools/builtin/list-dir.js";
import type { Tool } from "../../tools/tool.js";
import { ToolError } from "../../types/tool-error.js";
import { BatteryTally, runTrial, type BatteryResult } from "./hardening-trial.js";
import { makeDirectoryTree } from "../../types/make-directory-tree.js";

/** Names only the outside folder has: a result holding one listed outside. */
const outsideNames = ["only-outside-91c.txt", "outside-sub"];

/**
 * Listings under a racer (issue 30): another process swaps a workspace folder for a link to outside
 * ("flip": renames a prepared link over it; "swap": moves it aside and creates the link) while
 * list_dir, glob and grep run on it. A result naming an outside entry is an escape; a raw error
 * (ENOENT) instead of a tool error is a crash.
 */
export async function runListingRaceBattery(calls: number): Promise<BatteryResult> {
  const tally = new BatteryTally("listing-race");
  if (process.platform === "win32") return tally.finish();
  const root = await realpath(await mkdtemp(join(tmpdir(), "ctxkit-hardening-listing-")));
  const workspace = join(root, "workspace");
  const outside = join(root, "outside");
  try {
    await makeDirectoryTree(join(workspace, "dir", "sub"));
    await writeFile(join(workspace, "dir", "file.txt"), "inside\n");
    await writeFile(join(workspace, "dir", "sub", "deeper.txt"), "inside\n");
    await makeDirectoryTree(join(outside, "outside-sub"));
    await writeFile(join(outside, outsideNames[0]!), "SECRET\n");
    await writeFile(join(outside, "outside-sub", "x.txt"), "SECRET\n");
    const tools = { list_dir: createListDirTool({ workspace }), glob: createGlobTool({ workspace }), grep: createGrepTool({ workspace }) };
    const attempts: Array<[Tool<never>, Record<string, unknown>]> = [
      [tools.list_dir as Tool<never>, { path: "dir" }],
      [tools.glob as Tool<never>, { pattern: "dir/**" }],
      [tools.glob as Tool<never>, { pattern: "**", path: "dir" }],
      [tools.grep as Tool<never>, { pattern: "S.CRET|ins.de", path: "dir" }],
    ];
    for (const mode of ["flip", "swap"] as SwapMode[]) {
      const swapper = await startDirectorySwapper(join(workspace, "dir"), outside, mode);
      let escapes = 0;
      let raw = 0;
      let refused = 0;
      try {
        for (let done = 0; done < calls; done += attempts.length) {
          const outcome = await runTrial(() => Promise.allSettled(attempts.map(([tool, args]) => tool.execute(args as never, { signal: AbortSignal.timeout(15_000), toolCallId: "race" }))), 30_000);
          tally.trial(outcome, `${mode} race at call ${done}`);
          for (const result of outcome.value ?? []) {
            if (result.status === "rejected") {
              if (result.reason instanceof ToolError) refused += 1;
              else raw += 1;
              continue;
            }
            const content = typeof result.value === "string" ? result.value : result.value.content;
            if (content.includes("SECRET") || outsideNames.some((name) => content.includes(name))) escapes += 1;
            tally.outcome("answered from inside");
          }
        }
      } finally {
        swapper.stop();
        await restore(join(workspace, "dir"));
      }
      if (escapes > 0) tally.fail("escapes", `${mode}: ${escapes} listings showed outside names`, escapes);
      if (raw > 0) tally.fail("crashes", `${mode}: ${raw} calls threw a raw error instead of a tool error`, raw);
      for (let count = 0; count < refused; count += 1) tally.outcome("refused while the link was in place");
      tally.namedCase(`list_dir/glob/grep under a folder<->link racer (${mode}, ${calls} calls)`, escapes + raw === 0, `${escapes} outside names shown, ${raw} raw errors, ${refused} tool errors`);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return tally.finish();
}

/** Puts the folder back where a killed swapper may have left it (moved aside, a link in its place). */
async function restore(directory: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  const stats = await lstat(directory).catch(() => undefined);
  if (stats?.isSymbolicLink()) await unlink(directory);
  if (!stats?.isDirectory()) await rename(`${directory}.real`, directory).catch(() => undefined);
  await unlink(`${directory}.link`).catch(() => undefined);
}
