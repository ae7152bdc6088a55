import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assembleAgent } from "../../agents/assemble-agent.js";
import { createScriptedProvider, type ScriptedProvider } from "../../providers/scripted/create-scripted-provider.js";
import type { LoadedSession } from "../../session/loaded-session.js";
import { createSessionStore, type SessionStore } from "../../session/session-store.js";
import { startSession } from "../../session/start-session.js";
import type { ContextPolicy } from "../../context/context-policy.js";
import { CtxkitError, type Tool } from "../../types/index.js";
import { BatteryTally, runTrial, type BatteryResult } from "./hardening-trial.js";
import type { SeededRandom } from "./seeded-random.js";

const system = "You are a weather agent.";
const tools: Tool[] = [
  {
    name: "get_weather",
    description: "Current weather for a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    parallelSafe: true,
    execute: async (args) => `sunny in ${(args as { city: string }).city}`,
  },
];

/** The mutations a file meets: a line written twice, lost, swapped, moved, cut off, or a byte changed. */
const mutations = ["duplicate", "drop", "swap", "move", "truncate", "flip byte", "duplicate id, new content"] as const;

/**
 * Fuzzed session files: a real agent's session, mutated line by line, then loaded and resumed.
 * Each file must be refused, loaded with a warning, or load as an earlier state of the same session
 * (what a crash leaves); one that loads clean but different, and resumes, is a silent merge.
 */
export async function runSessionFileBattery(trials: number, random: SeededRandom): Promise<BatteryResult> {
  const tally = new BatteryTally("session-files");
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-hardening-sessions-"));
  try {
    const store = createSessionStore({ directory });
    const provider = weatherProvider();
    const base = await recordSession(store, provider);
    const original = await readFile(store.path(base), "utf8");
    const reference = fingerprint(await store.load(base));
    const lines = original.split("\n").slice(0, -1);
    for (let trial = 0; trial < trials; trial += 1) {
      const mutation = mutations[trial % mutations.length]!;
      const id = `fuzz-${trial}`;
      await writeFile(store.path(id), mutate(lines, mutation, random));
      const outcome = await runTrial(() => classify(store, id, provider, reference), 20_000);
      tally.trial(outcome, `${mutation} #${trial}`);
      // Every record carries a checksum (format 4), so even a byte turned into another valid value is seen.
      if (outcome.value === "silent") tally.fail("silentMerges", `${mutation} #${trial}: loaded clean but changed, and resumed`);
      else if (outcome.value !== undefined) tally.outcome(outcome.value);
    }
    await namedCases(store, provider, lines, tally);
    await selfConsistencyCases(store, provider, lines, tally);
    await compactedSessionCase(store, tally);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  return tally.finish();
}

function weatherProvider(): ScriptedProvider {
  return createScriptedProvider({
    turns: (request, call) =>
      call < 3 ? { toolCalls: [{ name: "get_weather", arguments: { city: `C${call}` } }, { name: "get_weather", arguments: { city: `D${call}` } }] } : "All sunny.",
  });
}

async function recordSession(store: SessionStore, provider: ScriptedProvider, task = "Weather everywhere, please."): Promise<string> {
  const { agent, session } = await assembleAgent({ provider, system, tools, session: { store, mode: "new" }, runtime: { maxIterations: 10 } });
  await agent.run(task).result();
  await session!.close();
  return session!.id;
}

function mutate(lines: readonly string[], mutation: (typeof mutations)[number], random: SeededRandom): string {
  const changed = [...lines];
  const at = 2 + random.below(changed.length - 2); // the header and first prefix stay: their damage is refused outright
  switch (mutation) {
    case "duplicate":
      changed.splice(at, 0, changed[at]!);
      break;
    case "drop":
      changed.splice(at, 1);
      break;
    case "swap":
      if (at + 1 < changed.length) [changed[at], changed[at + 1]] = [changed[at + 1]!, changed[at]!];
      break;
    case "move": {
      const [line] = changed.splice(at, 1);
      changed.splice(2 + random.below(changed.length - 1), 0, line!);
      break;
    }
    case "truncate": {
      const text = `${changed.join("\n")}\n`;
      return text.slice(0, text.length - 1 - random.below(Math.min(400, text.length - 1)));
    }
    case "flip byte": {
      const line = changed[at]!;
      const position = random.below(line.length);
      changed[at] = `${line.slice(0, position)}${String.fromCharCode(32 + random.below(95))}${line.slice(position + 1)}`;
      break;
    }
    case "duplicate id, new content": {
      const messageLine = changed.findIndex((line, index) => index >= at && line.startsWith('{"type":"message"'));
      const source = changed[messageLine < 0 ? changed.findIndex((line) => line.startsWith('{"type":"message"')) : messageLine]!;
      changed.splice(at, 0, source.replace(/"(content|text)":"/, '"$1":"(edited) '));
      break;
    }
  }
  return `${changed.join("\n")}\n`;
}

/** What a resumed agent would continue from, as comparable strings. */
function fingerprint(session: LoadedSession): { messages: string[]; requests: string[]; usage: string[] } {
  return {
    messages: session.messages.map((message) => JSON.stringify(message)),
    requests: session.requests.map((request) => `${request.index}:${request.messageCount}:${request.bodyHash}`),
    // Usage is keyed by its request: two usage lines in either order say the same.
    usage: [...session.usage].sort((left, right) => left.request - right.request).map((usage) => JSON.stringify(usage)),
  };
}

const isPrefix = (shorter: readonly string[], longer: readonly string[]) => shorter.length <= longer.length && shorter.every((entry, index) => entry === longer[index]);

async function classify(store: SessionStore, id: string, provider: ScriptedProvider, reference: ReturnType<typeof fingerprint>): Promise<string> {
  let loaded: LoadedSession;
  try {
    loaded = await store.load(id);
  } catch (error) {
    if (error instanceof CtxkitError) return "refused on load";
    throw error;
  }
  if (loaded.warnings.some((warning) => warning.code !== "torn_last_line" && warning.code !== "unterminated_last_line")) return "loaded with a warning";
  const seen = fingerprint(loaded);
  if (isPrefix(seen.messages, reference.messages) && isPrefix(seen.requests, reference.requests) && isPrefix(seen.usage, reference.usage)) {
    return seen.messages.length === reference.messages.length && loaded.warnings.length === 0 ? "loaded unchanged" : "loaded as an earlier state (like a crash)";
  }
  // Changed and clean on load: resuming checks the last request's bytes against its recorded hash.
  try {
    const resumed = await startSession(store, { id, system, tools, provider });
    await resumed.session.close();
    return "silent";
  } catch (error) {
    if (error instanceof CtxkitError) return `refused on resume (${error.code})`;
    throw error;
  }
}

async function namedCases(store: SessionStore, provider: ScriptedProvider, lines: readonly string[], tally: BatteryTally): Promise<void> {
  const messageLine = lines.findIndex((line) => line.startsWith('{"type":"message"'));
  await writeFile(store.path("duplicated-line"), `${[...lines.slice(0, messageLine + 1), ...lines.slice(messageLine)].join("\n")}\n`);
  const duplicate = await runTrial(async () => {
    const refused = await startSession(store, { id: "duplicated-line", system, tools, provider }).then(
      () => "resumed",
      (error: unknown) => (error instanceof CtxkitError ? error.code : "crash"),
    );
    const repaired = await startSession(store, { id: "duplicated-line", system, tools, provider, repair: true });
    await repaired.session.close();
    return `${refused}; with repair: ${repaired.warnings.map((warning) => warning.code).join(", ")}`;
  }, 20_000);
  tally.trial(duplicate, "duplicated session line");
  const duplicateOk = duplicate.value === "session_needs_repair; with repair: session_repaired";
  if (!duplicateOk) tally.fail("silentMerges", `duplicated session line: ${duplicate.value ?? String(duplicate.error)}`);
  tally.namedCase("duplicated session line", duplicateOk, duplicate.value ?? String(duplicate.error));

  // A model reply holding a 600 KB word: resuming such a session hung over 120 s.
  const big = await runTrial(async () => {
    const bigProvider = createScriptedProvider({ turns: [`Here it is: ${"QmFzZTY0".repeat(75_000)}`, "Again."] });
    const id = await recordSession(store, bigProvider, "Send the blob.");
    const resumed = await assembleAgent({ provider: bigProvider, system, tools, session: { store, mode: "resume", id } });
    const length = resumed.agent.messages.length;
    await resumed.agent.run("Once more.").result();
    await resumed.session!.close();
    return length;
  }, 30_000);
  tally.trial(big, "resume with a 600 KB message");
  tally.namedCase("resume a session holding a 600 KB message", !big.frozen && big.error === undefined, `${Math.round(big.durationMs)} ms, event loop blocked up to ${Math.round(big.lagMs)} ms`);
}

/**
 * The issue-30 mutations, each as it was found: the final answer removed while run_end still says
 * final_answer, a usage figure edited into another valid number, a message edited (refused at
 * resume, and named as an edit), and a trailing blank line.
 */
async function selfConsistencyCases(store: SessionStore, provider: ScriptedProvider, lines: readonly string[], tally: BatteryTally): Promise<void> {
  const answer = lines.findLastIndex((line) => line.startsWith('{"type":"message","message":{"role":"assistant"'));
  const usage = lines.findLastIndex((line) => line.startsWith('{"type":"usage"'));
  const tool = lines.findLastIndex((line) => line.startsWith('{"type":"message","message":{"role":"tool"'));
  const cases: Array<{ name: string; text: string; expect: (session: LoadedSession | undefined, resume: string) => boolean }> = [
    {
      name: "final answer removed, run_end still says final_answer",
      text: `${lines.filter((_, index) => index !== answer).join("\n")}\n`,
      expect: (session) => session?.warnings.some((warning) => warning.code === "records_disagree" && warning.message.includes("final_answer")) === true,
    },
    {
      name: "a usage figure edited into another valid number",
      text: `${lines.map((line, index) => (index === usage ? line.replace(/"inputTokens":(\d)/, (_, digit: string) => `"inputTokens":${(Number(digit) + 1) % 10}`) : line)).join("\n")}\n`,
      expect: (session) => session?.warnings.some((warning) => warning.code === "record_edited" && warning.line === usage + 1) === true,
    },
    {
      name: "a tool result edited: resume refused and the file named as edited",
      text: `${lines.map((line, index) => (index === tool ? line.replace("sunny in", "rainy in") : line)).join("\n")}\n`,
      expect: (_session, resume) => resume.includes("session_body_mismatch") && resume.includes("was edited after it was written"),
    },
    {
      // Format 4 turned into 3 on line 1 (which turns checksums off), with a tool result edited too.
      name: "header edited from format 4 to 3, and a tool result edited",
      text: `${lines.map((line, index) => (index === 0 ? line.replace('"version":4', '"version":3') : index === tool ? line.replace("sunny in", "rainy in") : line)).join("\n")}\n`,
      expect: (session) => session?.warnings.some((warning) => warning.code === "record_edited" && warning.line === 1) === true && session.warnings.some((warning) => warning.code === "record_edited" && warning.line === tool + 1),
    },
    {
      name: "a trailing blank line",
      text: `${lines.join("\n")}\n\n`,
      expect: (session, resume) => session?.warnings.length === 0 && resume === "resumed",
    },
  ];
  for (const [index, entry] of cases.entries()) {
    const id = `self-consistency-${index}`;
    await writeFile(store.path(id), entry.text);
    const outcome = await runTrial(async () => {
      const session = await store.load(id).catch(() => undefined);
      const resume = await startSession(store, { id, system, tools, provider }).then(
        async (started) => {
          await started.session.close();
          return "resumed";
        },
        (error: unknown) => (error instanceof CtxkitError ? `${error.code}: ${error.message}` : `crash: ${String(error)}`),
      );
      return { held: entry.expect(session, resume), detail: `${session === undefined ? "refused on load" : `${session.warnings.length} warnings (${session.warnings.map((warning) => `${warning.code} line ${warning.line}`).join(", ")})`}; resume: ${resume.slice(0, 80)}` };
    }, 20_000);
    tally.trial(outcome, entry.name);
    const held = outcome.value?.held === true;
    if (!held) tally.fail("silentMerges", `${entry.name}: ${outcome.value?.detail ?? String(outcome.error)}`);
    tally.namedCase(`session self-consistency: ${entry.name}`, held, outcome.value?.detail ?? String(outcome.error));
  }
}

/**
 * The issue's compacted session: a run whose context was compacted (a `replace` edit, recorded as
 * a context_edit) and ends at max_iterations right after its last tool result; that result is then
 * removed. The run now ends with a tool call unanswered, which the cross-check names.
 */
async function compactedSessionCase(store: SessionStore, tally: BatteryTally): Promise<void> {
  const name = "compacted session, last tool message removed";
  const outcome = await runTrial(async () => {
    const provider = weatherProvider();
    const compactor: ContextPolicy = {
      name: "bench-compactor",
      inherit: "never",
      prepareContext: (state) =>
        state.iteration === 2
          ? [{ type: "replace", start: 1, end: 3, reason: "compaction", messages: [{ role: "user", content: "Summary: C0 and D0 are sunny.", meta: { id: "summary-1", origin: "harness", createdAt: state.now.toISOString() } }] }]
          : undefined,
    };
    // Three calls, each answered by tool calls: the run ends (max_iterations) right after its last tool result.
    const started = await assembleAgent({ provider, system, tools, policies: [compactor], session: { store, mode: "new" }, runtime: { maxIterations: 3 } });
    const agent = started.agent;
    const session = started.session!;
    await agent.run("Weather everywhere, please.").result();
    await session.close();
    const text = await readFile(store.path(session.id), "utf8");
    const recorded = text.split("\n").slice(0, -1);
    const compactions = recorded.filter((line) => line.startsWith('{"type":"context_edit"')).length;
    const intact = await store.load(session.id);
    const tool = recorded.findLastIndex((line) => line.startsWith('{"type":"message","message":{"role":"tool"'));
    await writeFile(store.path("compacted-edited"), `${recorded.filter((_, index) => index !== tool).join("\n")}\n`);
    const edited = await store.load("compacted-edited");
    const named = edited.warnings.filter((warning) => warning.code === "records_disagree");
    return { held: compactions > 0 && intact.warnings.length === 0 && named.length > 0, detail: `${compactions} compaction(s); intact: ${intact.warnings.length} warnings; edited: ${named.map((warning) => `line ${warning.line}: ${warning.message.slice(0, 60)}`).join("; ") || "no warning"}` };
  }, 20_000);
  tally.trial(outcome, name);
  const held = outcome.value?.held === true;
  if (!held) tally.fail("silentMerges", `${name}: ${outcome.value?.detail ?? String(outcome.error)}`);
  tally.namedCase(`session self-consistency: ${name}`, held, outcome.value?.detail ?? String(outcome.error));
}
