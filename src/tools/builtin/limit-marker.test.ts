import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createBashTool } from "./bash.js";
import { bashArguments, createLimitMarker, limitMarkersInUse, releaseLimitMarker, type LimitMarker } from "./limit-marker.js";
import { expectToolError, runTool } from "./test-support/temp-workspace.js";

const onLinux = process.platform === "linux" ? describe : describe.skip;

function runBash(command: string, marker: LimitMarker | undefined, environment: NodeJS.ProcessEnv = process.env): { output: string; status: number | null } {
  const result = spawnSync("/bin/bash", bashArguments(command, marker), { encoding: "utf8", env: environment });
  return { output: `${result.stdout}${result.stderr}`, status: result.status };
}

describe("createLimitMarker", () => {
  it("never gives two running calls of one ctxkit the same value", () => {
    // 1,000 draws from 65,536 values collide with near certainty when drawn independently.
    const markers = Array.from({ length: 1000 }, () => createLimitMarker({ soft: "819200", hard: "819200" })!);
    try {
      expect(new Set(markers.map((marker) => marker.bytes)).size).toBe(markers.length);
      expect(markers.every((marker) => marker.bytes < 819_200 && marker.bytes >= 819_200 - 65_536)).toBe(true);
    } finally {
      for (const marker of markers) releaseLimitMarker(marker);
    }
  });

  it("keeps an unlimited limit out of reach rather than lowering it to the usual default", () => {
    const marker = createLimitMarker({ soft: "unlimited", hard: "unlimited" })!;
    releaseLimitMarker(marker);
    expect(marker.bytes).toBeGreaterThanOrEqual(Number.MAX_SAFE_INTEGER - 65_536);
  });

  it("is released by a call whose shell could not start", async () => {
    const held = limitMarkersInUse();
    const missing = path.join(tmpdir(), "ctxkit-no-such-workspace", String(process.pid));
    await expectToolError(runTool(createBashTool({ workspace: missing }), { command: "true" }), "failed");
    expect(limitMarkersInUse()).toBe(held);
  });

  it("gives none where the limit is too low to lower", () => {
    expect(createLimitMarker({ soft: "4096", hard: "819200" })).toBeUndefined();
  });
});

// The first version put `ulimit -S -q N 2>/dev/null; ` before the command on its line: a syntax
// error on that line quoted it to the model, and `$?` began at 1 where the limit could not be set.
onLinux("bashArguments", () => {
  const marker = createLimitMarker();
  if (marker !== undefined) releaseLimitMarker(marker);

  it("sets the limit for the command's processes", () => {
    expect(runBash("grep 'Max msgqueue size' /proc/self/limits", marker).output).toMatch(new RegExp(`^Max msgqueue size\\s+${marker!.bytes}\\s`));
  });

  it("shows the command as written in a syntax error, with its line numbers", () => {
    for (const command of ["echo ((", "true\necho (("]) {
      const plain = runBash(command, undefined);
      const marked = runBash(command, marker);
      expect(marked).toEqual(plain);
      expect(marked.output).not.toContain("ulimit");
    }
  });

  it("leaves $?, $0, $LINENO, the arguments and the shell's options as they were", () => {
    const command = "echo $? $0 $# $LINENO; set -o | md5sum; shopt | md5sum\n# a comment\necho $LINENO";
    expect(runBash(command, marker)).toEqual(runBash(command, undefined));
  });

  it("starts the command with $? at 0 where the limit cannot be set", () => {
    expect(runBash("echo $?", { bytes: -1 }).output).toBe("0\n");
  });

  it("reads BASH_ENV once, as a plain shell does", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "ctxkit-limit-marker-"));
    const file = path.join(folder, "environment.sh");
    writeFileSync(file, "echo sourced\n");
    expect(runBash("true", marker, { ...process.env, BASH_ENV: file }).output).toBe("sourced\n");
  });

  it("runs heredocs, set -e, cd and exec as a plain shell does", () => {
    const command = "set -e\ncd /\ncat <<EOF\n$PWD $LINENO\nEOF\nfalse\necho unreached";
    expect(runBash(command, marker)).toEqual(runBash(command, undefined));
    expect(runBash("exec echo replaced", marker).output).toBe("replaced\n");
  });
});
