import { once } from "node:events";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { hashBody } from "../../context/prefix-guard/prefix-guard.js";
import { createSessionStore } from "../../session/session-store.js";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../testing/openai-model-server.js";
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
  const root = await mkdtemp(join(tmpdir(), "ctxkit-hardening-kill-"));
  try {
    // One run to the end says how long a run lasts after its first model call; a kill then lands
    // anywhere in that span, counted from each trial's own first call (start-up time varies on a
    // loaded machine). One trial in ten is killed during start-up instead.
    const calibration = await startModel();
    const started = performance.now();
    const whole = await spawnCli([...runArguments(calibration.server.baseURL), task], { cwd: await workspace(root, "calibration"), timeoutMs: 120_000 }).finally(() => calibration.server.close());
    // The run has ended, so a model call it made has been seen by now: none means it failed before
    // asking (dist/ not built, a config or start-up error), and no trial could be timed from it.
    const firstCallAt = calibration.firstCallAt();
    if (firstCallAt === undefined) {
      const how = whole.timedOut ? "did not end in 120 s" : `exited ${whole.code ?? whole.signal}`;
      tally.fail(whole.timedOut ? "freezes" : "crashes", `the calibration run made no model call and ${how}: ${whole.stderr.slice(-300) || "(nothing on stderr)"}`);
      return tally.finish();
    }
    const spanMs = Math.max(200, started + whole.durationMs - firstCallAt);
    const plans = Array.from({ length: trials }, (_, trial) => ({ trial, duringStartUp: random.below(10) === 0, delayMs: Math.round(spanMs * 1.05 * random.fraction()) }));
    // Two trials at a time: each is mostly waiting on a child process.
    const queue = [...plans];
    const worker = async () => {
      for (let plan = queue.shift(); plan !== undefined; plan = queue.shift()) {
        const cwd = await workspace(root, `trial-${plan.trial}`);
        const label = `trial ${plan.trial} (killed ${plan.delayMs} ms after ${plan.duringStartUp ? "start" : "the first model call"})`;
        const outcome = await runTrial(() => killAndResume(cwd, plan.duringStartUp, plan.delayMs, tally, label), 240_000);
        tally.trial(outcome, label);
      }
    };
    await Promise.all([worker(), worker()]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return tally.finish();
}

async function workspace(root: string, name: string): Promise<string> {
  const cwd = join(root, name);
  await mkdir(cwd);
  await writeFile(join(cwd, "a.txt"), "alpha\nbeta\n");
  return cwd;
}

/**
 * A model server of its own for one trial, answering with tool calls for several rounds; `firstCall`
 * settles when it is first asked (never, when the run fails before asking: race it against the run),
 * `firstCallAt()` is that moment once it came.
 */
async function startModel(): Promise<{ server: OpenAIModelServer; firstCall: Promise<number>; firstCallAt: () => number | undefined }> {
  let markFirstCall: (at: number) => void = () => undefined;
  let firstCallAt: number | undefined;
  const firstCall = new Promise<number>((resolve) => (markFirstCall = resolve));
  // Rounds are counted by the server, not from the tool messages a request holds: compression may
  // archive early rounds out of the request (it does at this size), and the run must still end.
  let answered = 0;
  const server = await startOpenAIModelServer(() => {
    firstCallAt ??= performance.now();
    markFirstCall(firstCallAt);
    answered += 1;
    if (answered > toolRounds) return "Done.";
    return { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }, { name: "list_dir", arguments: { path: "." } }] };
  });
  return { server, firstCall, firstCallAt: () => firstCallAt };
}

async function killAndResume(cwd: string, duringStartUp: boolean, delayMs: number, tally: BatteryTally, label: string): Promise<void> {
  const { server, firstCall } = await startModel();
  try {
    await killResumeWith(server, firstCall, cwd, duringStartUp, delayMs, tally, label);
  } finally {
    await server.close();
  }
}

async function killResumeWith(server: OpenAIModelServer, firstCall: Promise<number>, cwd: string, duringStartUp: boolean, delayMs: number, tally: BatteryTally, label: string): Promise<void> {
  const args = runArguments(server.baseURL);
  const receivedBefore = server.requests.length;
  // The kill's wait ends with the run: a run that exits before its first call (or before the delay)
  // leaves no timer behind and no wait on a call that will never come.
  const exited = new AbortController();
  const runEnded = once(exited.signal, "abort");
  const killWhen = duringStartUp
    ? sleep(delayMs % 1_500, undefined, { signal: exited.signal })
    : Promise.race([firstCall, runEnded]).then(() => sleep(delayMs, undefined, { signal: exited.signal }));
  const killed = await spawnCli([...args, task], { cwd, timeoutMs: 120_000, killWhen }).finally(() => exited.abort());
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
