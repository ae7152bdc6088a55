import { runBigEventBattery } from "./big-event-battery.js";
import { runConfigBattery } from "./config-battery.js";
import { failureClasses, type BatteryResult } from "./hardening-trial.js";
import { runImporterBattery } from "./importer-battery.js";
import { runKillResumeBattery } from "./kill-resume-battery.js";
import { runListingRaceBattery } from "./listing-race-battery.js";
import { runResourceBattery } from "./resource-battery.js";
import { createSeededRandom } from "./seeded-random.js";
import { runSessionFileBattery } from "./session-file-battery.js";
import { runStreamBattery } from "./stream-battery.js";
import { runWorkspaceEscapeBattery } from "./workspace-escape-battery.js";

export const batteryNames = ["kill-resume", "session-files", "streams", "big-events", "importers", "workspace-escapes", "listing-race", "config", "resources"] as const;
export type BatteryName = (typeof batteryNames)[number];

/** The trial counts the batteries were first run at (the figures): `scale: 1`. */
export const fullCounts = { "kill-resume": 200, "session-files": 300, streams: 348, importers: 600, "workspace-escapes": 426, race: 3_600, config: 29 } as const;
/** What a default run does here in a few minutes. */
export const defaultCounts = { "kill-resume": 8, "session-files": 300, streams: 348, importers: 600, "workspace-escapes": 426, race: 600, config: 29 } as const;

export interface HardeningBenchOptions {
  seed: number;
  /** Multiplies the full counts (1 = the figures); default: `defaultCounts`. */
  scale?: number;
  /**
   * Every counted battery runs this many trials (a quick check); wins over `scale`. The big-event
   * battery then runs small events and reports their timing without judging it (timing is judged at
   * the default scale and with --scale; a parser regression fails the one-byte-chunk unit test).
   */
  trials?: number;
  only?: readonly BatteryName[];
  /** Called as each battery starts and ends (a progress display). */
  onBattery?: (name: BatteryName, done: number, total: number) => void;
}

export interface HardeningBenchResult {
  benchmark: "hardening";
  seed: number;
  counts: Record<keyof typeof fullCounts, number>;
  batteries: BatteryResult[];
  totals: Record<(typeof failureClasses)[number], number> & { trials: number };
}

export function trialCounts(options: Pick<HardeningBenchOptions, "scale" | "trials">): Record<keyof typeof fullCounts, number> {
  const entries = Object.entries(fullCounts) as Array<[keyof typeof fullCounts, number]>;
  return Object.fromEntries(
    entries.map(([name, full]) => [
      name,
      options.trials !== undefined ? Math.min(options.trials, full) : options.scale !== undefined ? Math.max(1, Math.round(full * options.scale)) : defaultCounts[name],
    ]),
  ) as Record<keyof typeof fullCounts, number>;
}

/** Runs the hardening batteries (each with its own stream from the seed, so one battery's count does not move another's cases). */
export async function runHardeningBench(options: HardeningBenchOptions): Promise<HardeningBenchResult> {
  const counts = trialCounts(options);
  const selected = batteryNames.filter((name) => options.only === undefined || options.only.includes(name));
  const random = (offset: number) => createSeededRandom(options.seed * 7919 + offset);
  const runners: Record<BatteryName, () => Promise<BatteryResult>> = {
    "kill-resume": () => runKillResumeBattery(counts["kill-resume"], random(1)),
    "session-files": () => runSessionFileBattery(counts["session-files"], random(2)),
    streams: () => runStreamBattery(counts.streams, random(3)),
    "big-events": () => runBigEventBattery({ judge: options.trials === undefined }),
    importers: () => runImporterBattery(counts.importers, random(4)),
    "workspace-escapes": () => runWorkspaceEscapeBattery(counts["workspace-escapes"], counts.race),
    // Half the race's calls per swap mode (flip, swap), four tools at a time.
    "listing-race": () => runListingRaceBattery(Math.max(4, Math.round(counts.race / 2))),
    config: () => runConfigBattery(counts.config),
    resources: () => runResourceBattery({ judgeLag: options.trials === undefined, quick: options.trials !== undefined }),
  };
  const batteries: BatteryResult[] = [];
  for (const [index, name] of selected.entries()) {
    options.onBattery?.(name, index, selected.length);
    batteries.push(await runners[name]());
  }
  options.onBattery?.(selected.at(-1) ?? "resources", selected.length, selected.length);
  const totals = { trials: 0, freezes: 0, crashes: 0, escapes: 0, silentMerges: 0, lostRecords: 0 };
  for (const battery of batteries) {
    totals.trials += battery.trials;
    for (const failure of failureClasses) totals[failure] += battery[failure];
  }
  return { benchmark: "hardening", seed: options.seed, counts, batteries, totals };
}
