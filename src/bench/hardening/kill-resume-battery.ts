import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashBody } from "../../context/prefix-guard/prefix-guard.js";
import { createSessionStore } from "../../session/session-store.js";
import { startOpenAIModelServer } from "../../testing/openai-model-server.js";
import { BatteryTally, runTrial, type BatteryResult } from "./hardening-trial.js";
import type { SeededRandom } from "./seeded-random.js";
import { isCliCrash, spawnCli } from "./spawn-cli.js";

const toolRounds = 60;
const task = "Read a.txt and list the folder, several times.";
const runArguments = (baseURL: string) => ["run", "--base-url", baseURL, "--model", "m", "--yes", "--no-sub-agents", "--max-iterations", "200"];
const recoverable = new Set(["torn_last_line", "unterminated_last_line"]);

/**
 * SIGKILL-and-resume: the built CLI runs a task against a loopback model server that answers with
 * tool calls for several rounds; it is killed at a random moment, then resumed. Lost records: a
 * request the server received that the session does not hold with the same body hash, or a session
 * that cannot be resumed to the end.
 */
export async function runKillResumeBattery(trials: number, random: SeededRandom): Promise<BatteryResult> {
  const tally = new BatteryTally("kill-resume");
  let firstCallAt: number | undefined;
  const server = await startOpenAIModelServer((body) => {
    firstCallAt ??= performance.now();
    const toolResults = body.messages.filter((message) => message.role === "tool").length;
    if (toolResults >= toolRounds * 2) return "Done.";
    return { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }, { name: "list_dir", arguments: { path: "." } }] };
  });
  const root = await mkdtemp(join(tmpdir(), "ctxkit-hardening-kill-"));
  const workspace = async (name: string): Promise<string> => {
    const cwd = join(root, name);
    await mkdir(cwd);
    await writeFile(join(cwd, "a.txt"), "alpha\nbeta\n");
    return cwd;
  };
  try {
    // One run to the end says when the first model call goes out and when a run ends here; kills then
    // land anywhere in between (start-up alone is not worth killing: nothing is written yet).
    const cwd = await workspace("calibration");
    const started = performance.now();
    const calibration = await spawnCli([...runArguments(server.baseURL), task], { cwd, timeoutMs: 120_000 });
    const firstCallMs = (firstCallAt ?? started) - started;
    const spanMs = Math.max(200, calibration.durationMs - firstCallMs);
    for (let trial = 0; trial < trials; trial += 1) {
      const killAfterMs = Math.round(firstCallMs * 0.9 + spanMs * 1.1 * random.fraction());
      const cwd = await workspace(`trial-${trial}`);
      const outcome = await runTrial(() => killAndResume(cwd, server, killAfterMs, tally, `trial ${trial} (killed at ${killAfterMs} ms)`), 180_000);
      tally.trial(outcome, `trial ${trial}`);
    }
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
  return tally.finish();
}

async function killAndResume(cwd: string, server: Awaited<ReturnType<typeof startOpenAIModelServer>>, killAfterMs: number, tally: BatteryTally, label: string): Promise<void> {
  const args = runArguments(server.baseURL);
  const receivedBefore = server.requests.length;
  const killed = await spawnCli([...args, task], { cwd, timeoutMs: 120_000, killAfterMs });
  if (isCliCrash(killed)) tally.fail("crashes", `${label}: ${killed.stderr.slice(-300)}`);
  if (killed.timedOut) tally.fail("freezes", `${label}: the run did not end in 120 s`);
  const received = server.requests.slice(receivedBefore).filter((request) => request.path === "/v1/chat/completions");
  const sessions = join(cwd, ".ctxkit", "sessions");
  const files = (await readdir(sessions).catch(() => [] as string[])).filter((name) => name.endsWith(".jsonl"));
  if (files.length === 0) {
    if (received.length > 0) tally.fail("lostRecords", `${label}: ${received.length} requests sent, no session file`, received.length);
    else tally.outcome("killed before the session existed");
    return;
  }
  const id = files[0]!.slice(0, -".jsonl".length);
  const store = createSessionStore({ directory: sessions });
  let loaded;
  try {
    loaded = await store.load(id);
  } catch (error) {
    tally.fail("lostRecords", `${label}: the session no longer loads: ${(error as Error).message}`, Math.max(1, received.length));
    return;
  }
  const odd = loaded.warnings.filter((warning) => !recoverable.has(warning.code));
  if (odd.length > 0) tally.fail("silentMerges", `${label}: ${odd.map((warning) => warning.code).join(", ")} after a kill`);
  const recorded = new Set(loaded.requests.map((request) => request.bodyHash));
  const missing = received.filter((request) => !recorded.has(hashBody(request.body))).length;
  if (missing > 0) tally.fail("lostRecords", `${label}: ${missing} of ${received.length} sent requests are not in the session`, missing);
  tally.outcome(killed.signal === "SIGKILL" ? "killed mid-run" : "finished before the kill");

  const resumed = await spawnCli([...args, "--session", id, "Go on."], { cwd, timeoutMs: 120_000 });
  if (isCliCrash(resumed)) tally.fail("crashes", `${label}, resume: ${resumed.stderr.slice(-300)}`);
  if (resumed.timedOut) tally.fail("freezes", `${label}, resume: did not end in 120 s`);
  else if (resumed.code !== 0 || !resumed.stdout.includes("Done.")) tally.fail("lostRecords", `${label}, resume exited ${resumed.code}: ${resumed.stderr.slice(-300)}`);
  const after = await store.load(id);
  if (after.requests.length < loaded.requests.length || after.log.length < loaded.log.length) tally.fail("lostRecords", `${label}: the resume lost records`);
}
