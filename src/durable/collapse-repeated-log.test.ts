import { describe, expect, it } from "vitest";
import { collapseRepeatedLog, type LogLevel } from "./collapse-repeated-log.js";

function collapsing(windowMs = 30_000) {
  let time = 0;
  const lines: string[] = [];
  const repeated = collapseRepeatedLog((level: LogLevel, message: string) => lines.push(`${level}: ${message}`), { windowMs, now: () => time });
  return { ...repeated, lines, advance: (ms: number) => void (time += ms) };
}

const refused = "Error getting startable workflows for queue ctxkit-runs: connect ECONNREFUSED 127.0.0.1:44349";

describe("a worker's log while its database is down", () => {
  it("logs a message once, counts it while it repeats, and says how many more came when its window ends", () => {
    const log = collapsing();
    for (let i = 0; i < 50; i++) {
      log.log("warn", refused);
      log.advance(200);
    }
    expect(log.lines).toEqual([`warn: ${refused}`]);
    log.advance(21_000);
    log.sweep();
    expect(log.lines).toEqual([`warn: ${refused}`, `warn: ${refused} (the same 49 more time(s) in the last 30 s)`]);
  });

  it("counts interleaved messages each on its own (DBOS's pollers fail in turn), by level and by text but for digits", () => {
    const log = collapsing();
    for (let i = 0; i < 10; i++) {
      log.log("warn", refused);
      log.log("warn", `heartbeat failed: connect ECONNREFUSED 127.0.0.1:${44349 + i}`);
      log.log("error", refused);
      log.advance(100);
    }
    expect(log.lines).toEqual([`warn: ${refused}`, "warn: heartbeat failed: connect ECONNREFUSED 127.0.0.1:44349", `error: ${refused}`]);
    log.flush();
    expect(log.lines.slice(3)).toEqual([
      `warn: ${refused} (the same 9 more time(s) in the last 1 s)`,
      "warn: heartbeat failed: connect ECONNREFUSED 127.0.0.1:44349 (the same 9 more time(s) in the last 1 s)",
      `error: ${refused} (the same 9 more time(s) in the last 1 s)`,
    ]);
  });

  it("keeps counting a flood that outlasts its window: one summary line a window, not the message again", () => {
    const log = collapsing(30_000);
    for (let i = 0; i < 100; i++) {
      log.log("warn", refused);
      log.advance(1_000);
    }
    log.flush();
    // 100 messages: the first, then 29 + 30 + 30 counted in three full windows and 10 in the last.
    expect(log.lines).toEqual([
      `warn: ${refused}`,
      `warn: ${refused} (the same 29 more time(s) in the last 30 s)`,
      `warn: ${refused} (the same 30 more time(s) in the last 30 s)`,
      `warn: ${refused} (the same 30 more time(s) in the last 30 s)`,
      `warn: ${refused} (the same 10 more time(s) in the last 10 s)`,
    ]);
  });

  it("logs a message again once its window ended without a repeat, and a flush forgets what it counted", () => {
    const log = collapsing();
    log.log("warn", refused);
    log.advance(30_000);
    log.log("warn", refused);
    log.flush();
    log.log("warn", refused);
    expect(log.lines).toEqual([`warn: ${refused}`, `warn: ${refused}`, `warn: ${refused}`]);
  });

  it("passes every info line, numbers and all (they report what was done: 'recovered 3 run(s)')", () => {
    const log = collapsing();
    log.log("info", "recovered 3 run(s) of stopped worker(s) a");
    log.log("info", "recovered 2 run(s) of stopped worker(s) a");
    log.flush();
    expect(log.lines).toEqual(["info: recovered 3 run(s) of stopped worker(s) a", "info: recovered 2 run(s) of stopped worker(s) a"]);
  });
});
