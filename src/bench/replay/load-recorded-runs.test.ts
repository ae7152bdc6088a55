import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadRecordedRuns } from "./load-recorded-runs.js";

// A real OpenHands V1 conversation as the SDK persisted it; origin in src/inspect/importers/fixtures/README.md.
const fixtures = fileURLToPath(new URL("../../inspect/importers/fixtures/", import.meta.url));
const conversation = fileURLToPath(new URL("../../inspect/importers/fixtures/openhands-v1-conversation/cd94562403b9487ebdd4018e3f531dfd", import.meta.url));

describe("loadRecordedRuns on an OpenHands V1 conversation folder", () => {
  const scratch = mkdtemp(join(tmpdir(), "ctxkit-replay-folder-"));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  it("replays the folder as one run, named directly or found in a folder searched with --format all", async () => {
    const direct = await loadRecordedRuns([conversation]);
    expect(direct.problems).toEqual([]);
    expect(direct.runs.map((run) => [run.format, run.calls.length])).toEqual([["openhands", 3]]);

    const root = join(await scratch, "conversations");
    await cp(conversation, join(root, "cd94562403b9487ebdd4018e3f531dfd"), { recursive: true });
    const searched = await loadRecordedRuns([root], { format: "all" });
    expect(searched.problems).toEqual([]);
    expect(searched.runs.map((run) => [run.id, run.calls.map((call) => call.reportedUsage?.promptTokens)])).toEqual([["cd94562403b9487ebdd4018e3f531dfd", [3778, 3869, 3936]]]);
  });

  it("still searches a folder of other transcripts file by file when it has an events/ subfolder of other JSON", async () => {
    const root = join(await scratch, "mixed");
    await mkdir(join(root, "events"), { recursive: true });
    await cp(join(fixtures, "claude-code-opus-4-6-1h-writes.jsonl"), join(root, "claude-code-opus-4-6-1h-writes.jsonl"));
    await cp(join(fixtures, "mini-swe-agent.traj.json"), join(root, "mini-swe-agent.traj.json"));
    await writeFile(join(root, "events", "event-1-deploy.json"), JSON.stringify({ name: "deploy", at: 1 }));
    const searched = await loadRecordedRuns([root], { format: "all" });
    expect(searched.runs.map((run) => run.format).sort()).toEqual(["claude-code", "mini-swe-agent"]);
    expect(searched.problems).toEqual([{ file: join(root, "events", "event-1-deploy.json"), reason: expect.stringContaining("not a transcript") }]);
  });
});
