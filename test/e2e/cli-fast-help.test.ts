import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// bin/ctxkit.js prints `--help`, `run --help` and the other help texts of dist/cli-bundle/help.json
// without loading the bundle (bin/known-help.js; start-up, issue 30 item 6). What it prints must
// be what the CLI itself prints: each command line of the file, run through the binary, against
// the bundle's `main` run for the same arguments. (test/e2e/cli-bundle-rebuild.test.ts: an edited
// file is still detected; test/e2e/cli-startup-modules.test.ts: the fast path loads no chunk.)
type Exit = { code: number | null; stdout: string; stderr: string };

function exitOf(args: string[]): Promise<Exit> {
  const child = spawn(process.execPath, args, { cwd: resolve("."), env: { PATH: process.env.PATH ?? "", HOME: resolve("."), NO_COLOR: "1" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  return new Promise((resolvePromise) => child.on("close", (code) => resolvePromise({ code, stdout, stderr })));
}

const fullCli = `require(${JSON.stringify(resolve("dist/cli-bundle/main.cjs"))}).main(process.argv.slice(1)).then((code) => { process.exitCode = code; })`;

describe("help texts answered without the bundle", { timeout: 120_000 }, () => {
  it("are, for each command line, what the CLI's main prints, and exit with its code", async () => {
    const help = JSON.parse(readFileSync(resolve("dist/cli-bundle/help.json"), "utf8")) as { answers: Record<string, unknown> };
    const commandLines = Object.keys(help.answers).map((key) => JSON.parse(key) as string[]);
    expect(commandLines).toEqual(expect.arrayContaining([["--help"], ["-h"], ["run", "--help"], ["chat", "--help"], []]));
    for (const argv of commandLines) {
      const [fast, full] = await Promise.all([exitOf([resolve("bin/ctxkit.js"), ...argv]), exitOf(["-e", fullCli, "--", ...argv])]);
      expect(full.stdout.length, `ctxkit ${argv.join(" ")}`).toBeGreaterThan(0);
      expect(fast, `ctxkit ${argv.join(" ")}`).toEqual(full);
    }
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
