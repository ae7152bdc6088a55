import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCompression } from "../context/compression/create-compression-policy.js";
import type { ContextPolicy } from "../context/context-policy.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createSessionStore } from "../session/index.js";
import { defineTool } from "../tools/tool.js";
import type { AgentEvent } from "../types/index.js";
import { assembleAgent } from "./assemble-agent.js";
import { shippedPolicies, type ShippedPolicy } from "./test-support/shipped-policies.js";

// The policy contract, in Hono's style: one suite, run over every shipped policy
// (test-support/shipped-policies.ts). A policy that cannot meet a check declares a skip with its reason.

const notes = "Meeting notes. ".repeat(2_000);
const readNotes = defineTool<Record<string, never>>({ name: "read_notes", description: "Read the notes.", parameters: { type: "object", properties: {} }, parallelSafe: true, source: "workspace", execute: async () => notes });
const fetchPage = defineTool<{ url: string }>({
  name: "fetch_page",
  description: "Fetch a page.",
  parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  parallelSafe: true,
  source: "external",
  risk: "read",
  execute: async ({ url }) => `Page ${url}: opening hours 9-17.`,
});
const runTurns = (task: string) => [
  { toolCalls: [{ name: "read_notes", arguments: {} }] },
  { toolCalls: [{ name: "fetch_page", arguments: { url: `https://example.com/${task}` } }] },
  `Done with ${task}.`,
];
const tasks = ["first", "second"];
const fixedClock = () => new Date("2026-03-01T10:00:00.000Z");

function counterIds() {
  let next = 0;
  return () => `id_${(next++).toString().padStart(4, "0")}`;
}

interface Trial {
  bodies: string[];
  events: AgentEvent[];
}

/** Runs the two tasks in one agent (or, with `resumeAfterFirst`, in an agent resumed from the first one's session). */
async function trial(policies: () => ContextPolicy[], options: { resumeAfterFirst?: boolean } = {}): Promise<Trial> {
  const workspace = mkdtempSync(join(tmpdir(), "ctxkit-contract-"));
  const store = createSessionStore({ directory: join(workspace, "sessions") });
  const provider = createScriptedProvider({ turns: tasks.flatMap(runTurns) });
  const createId = counterIds();
  const assemble = (mode: "new" | "resume", id?: string) =>
    assembleAgent({
      provider,
      system: "You keep notes.",
      tools: [readNotes, fetchPage],
      policies: policies(),
      session: { store, mode, ...(id ? { id } : {}) },
      defaults: false,
      prefixGuard: { strict: true },
      runtime: { clock: fixedClock, createId },
    });
  const events: AgentEvent[] = [];
  let assembled = await assemble("new");
  for (const [index, task] of tasks.entries()) {
    if (index === 1 && options.resumeAfterFirst) {
      await assembled.session!.close();
      assembled = await assemble("resume", assembled.session!.id);
    }
    for await (const event of assembled.agent.run(`Do the ${task} task.`)) events.push(event);
  }
  await assembled.session?.close();
  return { bodies: provider.bodies.map((body) => body.body ?? JSON.stringify(body)), events };
}

function runEnds(events: readonly AgentEvent[]) {
  return events.flatMap((event) => (event.type === "run_end" ? [event.stopReason] : []));
}

/**
 * The compositions the "composes" check runs: every shipped policy together, with one member of
 * each group of alternatives per round (round r takes a group's r-th member), so every two policies
 * that may meet share at least one composition. About six trials in all, instead of one per pair
 * (33 × 32): each is made once and its outcome shared by the checks of every policy in it.
 */
const groups = new Map<string, ShippedPolicy[]>();
for (const entry of shippedPolicies) if (entry.group) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
const rounds = Math.max(1, ...[...groups.values()].map((members) => members.length));
const compositions = Array.from({ length: rounds }, (_, round) =>
  shippedPolicies.filter((entry) => entry.group === undefined || groups.get(entry.group)![round % groups.get(entry.group)!.length] === entry),
);
const compositionTrials = new Map<number, Promise<Trial>>();
function compositionTrial(round: number, workspace: string): Promise<Trial> {
  if (!compositionTrials.has(round)) compositionTrials.set(round, trial(() => compositions[round]!.map((entry) => entry.create(workspace))));
  return compositionTrials.get(round)!;
}
const sharedWorkspace = mkdtempSync(join(tmpdir(), "ctxkit-contract-all-"));

function check(entry: ShippedPolicy, name: keyof NonNullable<ShippedPolicy["skips"]>, title: string, body: () => Promise<void>) {
  const skip = entry.skips?.[name];
  if (skip) it.skip(`${title} (skipped: ${skip})`, body);
  else it(title, body);
}

for (const entry of shippedPolicies) {
  describe(`the policy contract: ${entry.name}`, () => {
    const workspace = mkdtempSync(join(tmpdir(), "ctxkit-contract-ws-"));
    const make = () => [entry.create(workspace)];

    check(entry, "pure", "is pure given its inputs: two fresh instances send the same bytes", async () => {
      const [first, second] = [await trial(make), await trial(make)];
      expect(second.bodies).toEqual(first.bodies);
    });

    check(entry, "breaks", "makes only declared cache breaks (the strict prefix guard never stops a run)", async () => {
      const { events } = await trial(make);
      expect(runEnds(events)).toEqual(["final_answer", "final_answer"]);
      expect(events.filter((event) => event.type === "warning" && event.code === "undeclared_cache_break")).toEqual([]);
    });

    check(entry, "resume", "sends byte-identical requests after a resume", async () => {
      const [straight, resumed] = [await trial(make), await trial(make, { resumeAfterFirst: true })];
      expect(resumed.bodies).toEqual(straight.bodies);
    });

    check(entry, "composes", "composes with every other shipped policy (all of them in one agent)", async () => {
      const containing = compositions.flatMap((members, round) => (members.includes(entry) ? [round] : []));
      expect(containing.length).toBeGreaterThan(0);
      for (const round of containing) {
        const { events } = await compositionTrial(round, sharedWorkspace);
        expect(runEnds(events), compositions[round]!.map((member) => member.name).join(" + ")).toEqual(["final_answer", "final_answer"]);
        expect(events.filter((event) => event.type === "warning" && event.code === "undeclared_cache_break")).toEqual([]);
      }
    });

    check(entry, "compaction", "survives a compaction (its state is carried, the run goes on, the breaks are declared)", async () => {
      const { events } = await trial(() => (entry.createCompacting ? [entry.createCompacting()] : [entry.create(workspace), createCompression({ policy: "ctxkit", contextWindow: 6_000 })]));
      expect(events.some((event) => event.type === "context_edit" && event.kind === "replace")).toBe(true);
      expect(runEnds(events)).toEqual(["final_answer", "final_answer"]);
    });
  });
}
