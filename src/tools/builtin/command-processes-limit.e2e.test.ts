import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { CommandProcesses } from "./command-processes.js";
import { createLimitMarker, releaseLimitMarker } from "./limit-marker.js";

// The limit marker's value is one of 65,536: another ctxkit's call (the same user, or root's) may
// draw the same one. Its processes carry their own call's variable or descriptor, and must not be
// killed when this call ends; a process with the value and no other marker is this call's.
const onLinux = process.platform === "linux" ? describe : describe.skip;

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
});

function startDetached(command: string, environment: NodeJS.ProcessEnv): number {
  const child = spawn("/bin/bash", ["-c", command], { detached: true, stdio: "ignore", env: environment });
  child.unref();
  started.push(child.pid!);
  return child.pid!;
}

function isRunning(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

async function waitForLimit(pid: number, bytes: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const limits = readFileSync(`/proc/${pid}/limits`, "utf8");
    if (new RegExp(`^Max msgqueue size\\s+${bytes}\\s`, "m").test(limits) && readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep")) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`process ${pid} never ran sleep with the limit ${bytes}`);
}

onLinux("a call's processes found by the limit marker", () => {
  it("leave out another call's processes that drew the same value, and take one with no other marker", async () => {
    const marker = createLimitMarker()!;
    const { CTXKIT_BASH_CALL: _inherited, ...environment } = process.env;
    const shell = startDetached("exec sleep 40", environment);
    const anotherCalls = startDetached(`ulimit -S -q ${marker.bytes}; exec sleep 41`, { ...environment, CTXKIT_BASH_CALL: "another-call" });
    const unmarked = startDetached(`ulimit -S -q ${marker.bytes}; exec sleep 42`, environment);
    await waitForLimit(anotherCalls, marker.bytes);
    await waitForLimit(unmarked, marker.bytes);
    const processes = new CommandProcesses(shell, "this-call", marker);
    try {
      const killed = processes.killAll().map((entry) => entry.pid);
      expect(killed).toContain(unmarked);
      expect(killed).not.toContain(anotherCalls);
      expect(isRunning(anotherCalls)).toBe(true);
    } finally {
      processes.release();
      releaseLimitMarker(marker);
    }
  });
});
