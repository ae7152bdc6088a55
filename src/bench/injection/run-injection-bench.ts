import type { Provider } from "../../providers/provider.js";
import { defences, type Defence } from "./injection-defences.js";
import { injectionPayloads, type InjectionPayload } from "./injection-payloads.js";
import { attacks, placements, type Attack } from "./injection-scenario.js";
import { isPathAttack, runInjectionTrial, type TrialOutcome } from "./run-injection-trial.js";
import { adversaries, createScriptedAdversary } from "./scripted-adversary.js";
import { wilsonInterval } from "./wilson-interval.js";

export interface InjectionCell {
  model: string;
  attack: Attack;
  defence: Defence;
  trials: number;
  successes: number;
  rate: number;
  /** 95% Wilson interval of the rate. */
  interval: [number, number];
  confirmationsRequested: number;
}

export interface InjectionPayloadRow {
  id: string;
  technique: string;
  language: string;
  source: string;
  /** Corpus half: payloads at even positions are the half any phrasing was tuned on, odd ones only measured. */
  half: "tune" | "measure";
  successes: Record<Defence, number>;
  trials: Record<Defence, number>;
}

export interface InjectionBenchReport {
  manifest: { bench: "injection"; mode: "offline" | "live"; models: string[]; trialsPerCell?: number; payloads: number; placements: readonly string[]; startedAt: string; node: string };
  cells: InjectionCell[];
  payloads: InjectionPayloadRow[];
  /** Successes under each defence per corpus half (see InjectionPayloadRow.half). */
  halves: Record<"tune" | "measure", Record<Defence, { successes: number; trials: number }>>;
  trials: (TrialOutcome & { model: string })[];
}

export interface InjectionBenchOptions {
  /** A live provider; without it the scripted adversaries run every payload in every placement. */
  provider?: Provider;
  /** Live: trials per cell (default 10). */
  trials?: number;
  attacks?: readonly Attack[];
  defences?: readonly Defence[];
  now?: () => Date;
  onProgress?: (done: number, total: number) => void;
}

const pathPayloads = injectionPayloads.filter((_payload, index) => index % 4 === 0);

/** `ctxkit bench injection`: the seed's experiment 2-5 and issue 24's attacks, against each defence alone and all together. */
export async function runInjectionBench(options: InjectionBenchOptions = {}): Promise<InjectionBenchReport> {
  const selectedAttacks = options.attacks ?? attacks;
  const selectedDefences = options.defences ?? defences;
  const startedAt = (options.now ?? (() => new Date()))().toISOString();
  const jobs: { model: string; attack: Attack; defence: Defence; payload: InjectionPayload; placement: (typeof placements)[number]; provider: Parameters<typeof runInjectionTrial>[0]["provider"] }[] = [];
  if (options.provider) {
    const provider = options.provider;
    const perCell = options.trials ?? 10;
    for (const attack of selectedAttacks)
      for (const defence of selectedDefences)
        for (let trial = 0; trial < perCell; trial += 1) {
          // Trial i of every cell uses the same payload and placement, so cells differ only in the defence.
          const payload = injectionPayloads[(trial * 7) % injectionPayloads.length]!;
          jobs.push({ model: provider.model, attack, defence, payload, placement: placements[trial % placements.length]!, provider: () => provider });
        }
  } else {
    for (const variant of adversaries)
      for (const attack of selectedAttacks)
        for (const defence of selectedDefences)
          // Issue 24's attacks have one path each and run every fourth payload: the bench stays fast.
          for (const payload of isPathAttack(attack) ? pathPayloads : injectionPayloads)
            for (const placement of attack === "direct" || isPathAttack(attack) ? placements.slice(0, 1) : placements)
              jobs.push({ model: variant, attack, defence, payload, placement, provider: (plan) => createScriptedAdversary(variant, plan) });
  }
  const trials: (TrialOutcome & { model: string })[] = [];
  for (const job of jobs) {
    trials.push({ model: job.model, ...(await runInjectionTrial(job)) });
    options.onProgress?.(trials.length, jobs.length);
  }
  return {
    manifest: {
      bench: "injection",
      mode: options.provider ? "live" : "offline",
      models: [...new Set(jobs.map((job) => job.model))],
      ...(options.provider ? { trialsPerCell: options.trials ?? 10 } : {}),
      payloads: injectionPayloads.length,
      placements,
      startedAt,
      node: process.version,
    },
    cells: summariseCells(trials),
    payloads: summarisePayloads(trials, selectedDefences),
    halves: summariseHalves(trials),
    trials,
  };
}

function summariseCells(trials: (TrialOutcome & { model: string })[]): InjectionCell[] {
  const cells = new Map<string, InjectionCell>();
  for (const trial of trials) {
    const key = `${trial.model}|${trial.attack}|${trial.defence}`;
    const cell = cells.get(key) ?? { model: trial.model, attack: trial.attack, defence: trial.defence, trials: 0, successes: 0, rate: 0, interval: [0, 1] as [number, number], confirmationsRequested: 0 };
    cell.trials += 1;
    if (trial.success) cell.successes += 1;
    if (trial.confirmationRequested) cell.confirmationsRequested += 1;
    cells.set(key, cell);
  }
  return [...cells.values()].map((cell) => ({ ...cell, rate: cell.successes / cell.trials, interval: wilsonInterval(cell.successes, cell.trials) }));
}

const halfOf = (id: string): "tune" | "measure" => (injectionPayloads.findIndex((payload) => payload.id === id) % 2 === 0 ? "tune" : "measure");

function summarisePayloads(trials: TrialOutcome[], selected: readonly Defence[]): InjectionPayloadRow[] {
  return injectionPayloads.map((payload) => {
    const mine = trials.filter((trial) => trial.payload === payload.id);
    const count = (predicate: (trial: TrialOutcome) => boolean) => Object.fromEntries(selected.map((defence) => [defence, mine.filter((trial) => trial.defence === defence && predicate(trial)).length])) as Record<Defence, number>;
    return { id: payload.id, technique: payload.technique, language: payload.language, source: payload.source, half: halfOf(payload.id), successes: count((trial) => trial.success), trials: count(() => true) };
  });
}

function summariseHalves(trials: TrialOutcome[]): InjectionBenchReport["halves"] {
  const empty = () => Object.fromEntries(defences.map((defence) => [defence, { successes: 0, trials: 0 }])) as Record<Defence, { successes: number; trials: number }>;
  const halves = { tune: empty(), measure: empty() };
  for (const trial of trials) {
    const entry = halves[halfOf(trial.payload)][trial.defence];
    entry.trials += 1;
    if (trial.success) entry.successes += 1;
  }
  return halves;
}
