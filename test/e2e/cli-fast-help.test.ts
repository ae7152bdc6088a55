import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// bin/ctxkit.js prints `--help`, `run --help` and the other help texts of dist/cli-bundle/help.json
// without loading the bundle (bin/known-help.js; start-up, issue 30 item 6). What it prints must
// be what the CLI itself prints: each command line of the file, run through the binary, against
// the bundle's `main` run for the same arguments. (test/e2e/cli-bundle-rebuild.test.ts: an edited
// file is still detected; test/e2e/cli-fast-help-installed.test.ts: the same in an installed package.)
type Exit = { code: number | null; stdout: string; stderr: string };

// Lists the CommonJS modules a process loaded (the bundle is CommonJS) when it exits.
const hookDirectory = mkdtempSync(join(tmpdir(), "ctxkit-fast-help-"));
const hook = join(hookDirectory, "list-loaded.cjs");
writeFileSync(hook, `process.on("exit", () => require("node:fs").writeFileSync(process.env.LOADED_FILE, JSON.stringify(Object.keys(require.cache))));\n`);
const bundleModulesIn = (loadedFile: string) => (JSON.parse(readFileSync(loadedFile, "utf8")) as string[]).filter((file) => file.includes("/dist/cli-bundle/"));

function exitOf(args: string[], env: Record<string, string> = {}): Promise<Exit> {
  const child = spawn(process.execPath, args, { cwd: resolve("."), env: { PATH: process.env.PATH ?? "", HOME: resolve("."), NO_COLOR: "1", ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  return new Promise((resolvePromise) => child.on("close", (code) => resolvePromise({ code, stdout, stderr })));
}

const fullCli = `require(${JSON.stringify(resolve("dist/cli-bundle/main.cjs"))}).main(process.argv.slice(1)).then((code) => { process.exitCode = code; })`;

describe("help texts answered without the bundle", { timeout: 120_000 }, () => {
  it("are, for each command line, what the CLI's main prints, and exit with its code", async () => {
    const help = JSON.parse(readFileSync(resolve("dist/cli-bundle/help.json"), "utf8")) as { commandLines: Record<string, number> };
    const commandLines = Object.keys(help.commandLines).map((key) => JSON.parse(key) as string[]);
    expect(commandLines).toEqual(expect.arrayContaining([["--help"], ["-h"], ["run", "--help"], ["chat", "--help"], []]));
    for (const argv of commandLines) {
      const loadedFile = join(hookDirectory, "loaded.json");
      const [fast, full] = await Promise.all([exitOf(["--require", hook, resolve("bin/ctxkit.js"), ...argv], { LOADED_FILE: loadedFile }), exitOf(["-e", fullCli, "--", ...argv])]);
      // A bare `ctxkit` is a usage error: its help goes to stderr (exit 2); the others print on stdout.
      expect((argv.length === 0 ? full.stderr : full.stdout).length, `ctxkit ${argv.join(" ")}`).toBeGreaterThan(0);
      expect(fast, `ctxkit ${argv.join(" ")}`).toEqual(full);
      // Printed from help.json, not by the bundle.
      expect(bundleModulesIn(loadedFile), `ctxkit ${argv.join(" ")}`).toEqual([]);
    }
    // The hook does see the bundle when a help request is not one of help.json's.
    const loadedFile = join(hookDirectory, "loaded-other.json");
    await exitOf(["--require", hook, resolve("bin/ctxkit.js"), "run", "--model", "m", "--help"], { LOADED_FILE: loadedFile });
    expect(bundleModulesIn(loadedFile)).toContain(resolve("dist/cli-bundle/main.cjs"));
  });

  it("ends quietly when the reader leaves early (EPIPE)", async () => {
    const child = spawn(process.execPath, [resolve("bin/ctxkit.js"), "chat", "--help"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolvePromise) => child.on("close", resolvePromise));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
