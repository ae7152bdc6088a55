export type LogLevel = "info" | "warn" | "error";
export type LogSink = (level: LogLevel, message: string) => void;

export interface RepeatedLog {
  /**
   * Logs `message` unless the same warning or error (same level, same text but for its digits) was
   * logged within the window: then it is counted. Info lines always pass (they report what was done,
   * and their numbers matter: "recovered 3 run(s)").
   */
  log: LogSink;
  /** Says how often each message whose window has ended came again (call it now and then: a quiet worker logs nothing to trigger it). */
  sweep(): void;
  /** Says how often each counted message came again, its window ended or not (the database is back, the worker stops). */
  flush(): void;
}

interface Counted {
  level: LogLevel;
  message: string;
  since: number;
  more: number;
}

/**
 * Collapses a flood of identical log lines into one line and a count. A worker whose database is
 * down hears the same few errors from each of DBOS's pollers many times a second (about 12 lines a
 * second, interleaved): each is logged the first time, then counted per message for `windowMs`,
 * and when its window ends one line says how many more came (a new window counts on while they keep
 * coming). Digits are ignored when comparing, so a changing count or timestamp does not break a run.
 */
export function collapseRepeatedLog(sink: LogSink, options: { windowMs?: number; now?: () => number } = {}): RepeatedLog {
  const windowMs = options.windowMs ?? 30_000;
  const now = options.now ?? Date.now;
  const counted = new Map<string, Counted>();
  const say = (entry: Counted, at: number) => {
    const seconds = Math.max(1, Math.round(Math.min(at - entry.since, windowMs) / 1000));
    sink(entry.level, `${entry.message} (the same ${entry.more} more time(s) in the last ${seconds} s)`);
  };
  const sweep = (all: boolean) => {
    const at = now();
    for (const [key, entry] of counted) {
      if (!all && at - entry.since < windowMs) continue;
      if (entry.more > 0) say(entry, at);
      // A message still coming after its summary is counted in a new window rather than logged again.
      if (entry.more > 0 && !all) counted.set(key, { ...entry, since: at, more: 0 });
      else counted.delete(key);
    }
  };
  return {
    log(level, message) {
      sweep(false);
      if (level === "info") {
        sink(level, message);
        return;
      }
      const key = `${level} ${message.replace(/\d+/g, "#")}`;
      const entry = counted.get(key);
      if (entry) {
        entry.more += 1;
        return;
      }
      counted.set(key, { level, message, since: now(), more: 0 });
      sink(level, message);
    },
    sweep: () => sweep(false),
    flush: () => sweep(true),
  };
}
