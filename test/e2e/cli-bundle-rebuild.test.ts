import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// bin/ctxkit.js in a clone bundles the CLI again (dist/cli-bundle) when what it was made from has
// changed. Each test runs in a copy of the package (bin/, scripts/, dist/, package.json; data/
// and node_modules linked), so the bundles it makes leave the worktree's alone.
const copies: string[] = [];
// Each copy holds a dist/ of thousands of files: removing them all takes longer than a hook's 10 s on a busy machine.
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
}, 120_000);

/** `keepTimes`: the copy's bundle is as fresh as the worktree's (else every compiled file is newer than it). */
function copyOfPackage(keepTimes = false): string {
  const copy = mkdtempSync(join(tmpdir(), "ctxkit-bundle-"));
  copies.push(copy);
  for (const part of ["bin", "scripts", "dist", "package.json", "tsconfig.build.json"]) cpSync(resolve(part), join(copy, part), { recursive: true, preserveTimestamps: keepTimes });
  for (const shared of ["node_modules", "data"]) symlinkSync(realpathSync(resolve(shared)), join(copy, shared));
  return copy;
}

type Exit = { code: number | null; stdout: string; stderr: string };

function run(copy: string, args: string[], env: Record<string, string> = {}): Promise<Exit> {
  const child = spawn(process.execPath, [join(copy, "bin/ctxkit.js"), ...args], { cwd: copy, env: { PATH: process.env.PATH ?? "", HOME: copy, NO_COLOR: "1", ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  return new Promise((resolvePromise) => child.on("close", (code) => resolvePromise({ code, stdout, stderr })));
}

const bundleFiles = (copy: string) => readdirSync(join(copy, "dist/cli-bundle"));
const demoChunks = (copy: string) => bundleFiles(copy).filter((name) => /^demo-command-.+\.cjs$/.test(name));

/** Changes the compiled demo command, as an incremental `tsc --watch` would: that one file only. */
function recompileDemoCommand(copy: string, marker: string): void {
  appendFileSync(join(copy, "dist/cli/commands/demo-command.js"), `\nglobalThis.ctxkitRebuildMarker = ${JSON.stringify(marker)};\n`);
}

describe("the CLI's bundle in a clone", { timeout: 240_000 }, () => {
  it("is rebuilt once when several processes start at once after tsc, and each of them runs", async () => {
    const copy = copyOfPackage();
    const now = new Date();
    utimesSync(join(copy, "dist/cli/main.js"), now, now);
    const version = JSON.parse(readFileSync(resolve("package.json"), "utf8")) as { version: string };
    const exits = await Promise.all([1, 2, 3, 4].map(() => run(copy, ["--version"])));
    for (const exit of exits) {
      expect(exit.stderr).toBe("");
      expect(exit.code).toBe(0);
      expect(exit.stdout).toContain(version.version);
    }
    // No build folder and no lock left behind; the bundle is newer than what it was made from.
    expect(readdirSync(join(copy, "dist")).filter((name) => name.startsWith("cli-bundle.tmp-") || name.startsWith(".build.lock"))).toEqual([]);
    expect(statSync(join(copy, "dist/cli-bundle/main.cjs")).mtimeMs).toBeGreaterThanOrEqual(statSync(join(copy, "dist/cli/main.js")).mtimeMs);
  });

  it("waits for the process holding the build lock, then bundles nothing; takes over a lock whose process died", async () => {
    const copy = copyOfPackage();
    const lock = join(copy, "dist/.build.lock");
    recompileDemoCommand(copy, "built by the lock holder");
    // This test process holds the lock, as a start that is bundling would.
    writeFileSync(lock, String(process.pid), { flag: "wx" });
    const waiting = run(copy, ["--version"]);
    execFileSync(process.execPath, [join(copy, "scripts/bundle-cli.mjs")], { stdio: "ignore" });
    const bundledHere = statSync(join(copy, "dist/cli-bundle/main.cjs")).mtimeMs;
    rmSync(lock);
    const waited = await waiting;
    expect(waited.stderr).toBe("");
    expect(waited.code).toBe(0);
    // It found the bundle fresh once it had the lock: main.cjs is the one made here.
    expect(statSync(join(copy, "dist/cli-bundle/main.cjs")).mtimeMs).toBe(bundledHere);

    // A lock left by a process that has ended (its pid no longer runs) does not block a start.
    const ended = spawn(process.execPath, ["-e", ""]);
    const endedPid = ended.pid!;
    await new Promise((resolvePromise) => ended.on("close", resolvePromise));
    writeFileSync(lock, String(endedPid));
    recompileDemoCommand(copy, "built after a dead lock");
    const start = await run(copy, ["--version"]);
    expect(start.stderr).toBe("");
    expect(start.code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    expect(demoChunks(copy).some((name) => readFileSync(join(copy, "dist/cli-bundle", name), "utf8").includes("built after a dead lock"))).toBe(true);
  });

  it("is rebuilt when only a module other than main.js was recompiled, and keeps the chunks a running process still loads", async () => {
    const copy = copyOfPackage();
    const oldDemoChunks = demoChunks(copy);
    expect(oldDemoChunks.length).toBeGreaterThan(0);

    // A long-lived process started from the bundle as it is: it requires the demo command's chunk
    // only when first used (as `ctxkit chat` does its commands), after the rebuild below.
    const script = `const { main } = require(${JSON.stringify(join(copy, "dist/cli-bundle/main.cjs"))});
process.stdout.write("ready\\n");
process.stdin.once("data", () => main(["demo"]).then((code) => { process.stdin.destroy(); process.exitCode = code; }));`;
    const running = spawn(process.execPath, ["-e", script], { cwd: copy, env: { PATH: process.env.PATH ?? "", HOME: copy, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    running.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    const exited = new Promise<number | null>((resolvePromise) => running.on("close", resolvePromise));
    await new Promise<void>((resolvePromise) => {
      running.stdout.on("data", (data: Buffer) => {
        stdout += data.toString();
        if (stdout.startsWith("ready\n")) resolvePromise();
      });
    });

    recompileDemoCommand(copy, "second build");
    const start = await run(copy, ["--version"]);
    expect(start.stderr).toBe("");
    expect(start.code).toBe(0);
    // The next start found the change (main.js is as it was) and bundled again: a new demo chunk
    // beside the old one.
    const newDemoChunk = demoChunks(copy).find((name) => !oldDemoChunks.includes(name));
    expect(newDemoChunk, `chunks: ${demoChunks(copy).join(", ")}`).toBeDefined();
    expect(readFileSync(join(copy, "dist/cli-bundle", newDemoChunk!), "utf8")).toContain("second build");
    for (const old of oldDemoChunks) expect(existsSync(join(copy, "dist/cli-bundle", old))).toBe(true);

    running.stdin.write("go\n");
    expect(await exited, stderr).toBe(0);
    expect(stderr).not.toMatch(/Cannot find module/);
    expect(stdout.length).toBeGreaterThan("ready\n".length);

    // Fresh now: the next start bundles nothing.
    const listed = bundleFiles(copy).sort();
    const mainTime = statSync(join(copy, "dist/cli-bundle/main.cjs")).mtimeMs;
    expect((await run(copy, ["--version"])).code).toBe(0);
    expect(bundleFiles(copy).sort()).toEqual(listed);
    expect(statSync(join(copy, "dist/cli-bundle/main.cjs")).mtimeMs).toBe(mainTime);
  });

  it("is fresh after a rebuild when the packages are hoisted into a workspace's node_modules, above the package", async () => {
    // A workspace (npm, yarn, pnpm's hoisted layout): the package's folder has no node_modules, the
    // workspace's has the dependencies, valibot (bundled into the run's chunk) among them.
    const workspace = mkdtempSync(join(tmpdir(), "ctxkit-workspace-"));
    copies.push(workspace);
    symlinkSync(realpathSync(resolve("node_modules")), join(workspace, "node_modules"));
    const copy = join(workspace, "packages/ctxkit");
    mkdirSync(copy, { recursive: true });
    for (const part of ["bin", "scripts", "dist", "package.json", "tsconfig.build.json"]) cpSync(resolve(part), join(copy, part), { recursive: true });
    symlinkSync(realpathSync(resolve("data")), join(copy, "data"));

    const first = await run(copy, ["--version"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    // Every file the bundle lists is found from the package's root, the bundled package's too.
    const inputs = JSON.parse(readFileSync(join(copy, "dist/cli-bundle/inputs.json"), "utf8")) as string[];
    expect(inputs.filter((file) => file.includes("node_modules/valibot/")).length).toBeGreaterThan(0);
    expect(inputs.filter((file) => !existsSync(join(copy, file)))).toEqual([]);
    // So the next start bundles nothing (a listed file that is not found reads as changed).
    const mainTime = statSync(join(copy, "dist/cli-bundle/main.cjs")).mtimeMs;
    expect((await run(copy, ["--version"])).code).toBe(0);
    expect(statSync(join(copy, "dist/cli-bundle/main.cjs")).mtimeMs).toBe(mainTime);
  });

  it("answers a help text from help.json only while the bundle and the files the text came from are unchanged", async () => {
    const copy = copyOfPackage(true);
    const helpFile = join(copy, "dist/cli-bundle/help.json");
    const mainFile = join(copy, "dist/cli-bundle/main.cjs");
    expect(statSync(helpFile).mtimeMs).toBe(statSync(mainFile).mtimeMs);
    // A whole millisecond (a time set from a Date reads back with a fraction), as both files have.
    const bundledAt = Math.ceil(statSync(mainFile).mtimeMs);
    utimesSync(mainFile, new Date(bundledAt), new Date(bundledAt));
    const mainTime = statSync(mainFile).mtimeMs;
    const runHelpKey = JSON.stringify(["run", "--help"]);
    const answerIn = (file: string) => {
      const help = JSON.parse(readFileSync(file, "utf8")) as { commandLines: Record<string, number>; answers: Array<{ stdout: string }> };
      return help.answers[help.commandLines[runHelpKey]!]!.stdout;
    };
    const original = answerIn(helpFile);

    // The binary does print from the file (a marked answer shows it), only beside the main.cjs it
    // was made with: the same file with another time is the CLI's to answer.
    writeFileSync(helpFile, readFileSync(helpFile, "utf8").replace("Usage: ctxkit run", "Usage (from help.json): ctxkit run"));
    utimesSync(helpFile, new Date(bundledAt), new Date(bundledAt));
    expect((await run(copy, ["run", "--help"])).stdout).toContain("Usage (from help.json): ctxkit run");
    utimesSync(helpFile, new Date(bundledAt - 1000), new Date(bundledAt - 1000));
    expect((await run(copy, ["run", "--help"])).stdout).toBe(original);
    utimesSync(helpFile, new Date(bundledAt), new Date(bundledAt));

    // A recompiled file the help texts do not come from: still answered from the file, nothing bundled.
    recompileDemoCommand(copy, "not a help text");
    const unrelated = await run(copy, ["run", "--help"]);
    expect(unrelated.stdout).toContain("Usage (from help.json): ctxkit run");
    expect(unrelated.code).toBe(0);
    expect(statSync(mainFile).mtimeMs).toBe(mainTime);

    // The help text's own compiled file rewritten in place (as tsc does): the CLI answers, from a new
    // bundle, and help.json is made again with the new text.
    const runHelpModule = join(copy, "dist/cli/commands/run-help.js");
    writeFileSync(runHelpModule, readFileSync(runHelpModule, "utf8").replace("Runs one agent task", "Runs one edited agent task"));
    const edited = await run(copy, ["run", "--help"]);
    expect(edited.stderr).toBe("");
    expect(edited.code).toBe(0);
    expect(edited.stdout).toBe(original.replace("Runs one agent task", "Runs one edited agent task"));
    expect(statSync(mainFile).mtimeMs).toBeGreaterThan(bundledAt);
    expect(answerIn(helpFile)).toBe(edited.stdout);
    expect(statSync(helpFile).mtimeMs).toBe(statSync(mainFile).mtimeMs);

    // A file a help text imports (the agent options shared by run and chat) counts as much.
    const optionsModule = join(copy, "dist/cli/agent-options-help.js");
    const beforeOptions = statSync(mainFile).mtimeMs;
    writeFileSync(optionsModule, `${readFileSync(optionsModule, "utf8")}\nexport const ctxkitEditMarker = 1;\n`);
    const afterOptionsEdit = await run(copy, ["chat", "-h"]);
    expect(afterOptionsEdit.code).toBe(0);
    expect(statSync(mainFile).mtimeMs).toBeGreaterThan(beforeOptions);
  });

  it("prunes the code caches a rebuild leaves stale: a removed chunk's, an old format's, the packages', old temporaries", () => {
    const copy = copyOfPackage();
    const cacheDir = join(copy, "dist/cli-bundle/v8-cache");
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(join(cacheDir, "packages"), { recursive: true });
    const variant = "0123456789abcdef";
    const hourAndMinuteAgo = new Date(Date.now() - 61 * 60 * 1000);
    const seed = (name: string, old = false) => {
      writeFileSync(join(cacheDir, name), "cache");
      if (old) utimesSync(join(cacheDir, name), hourAndMinuteAgo, hourAndMinuteAgo);
    };
    const kept = [`main.cjs.${variant}.cache`, `main.cjs.fedcba9876543210.cache`, `main.cjs.${variant}.cache.a1b2c3d4e5f6.tmp`];
    for (const name of kept) seed(name);
    seed(`gone-AbCd1234.cjs.${variant}.cache`);
    seed("main.cjs.cache");
    seed(`main.cjs.${variant}.cache.0a0b0c0d0e0f.tmp`, true);
    seed(`packages/0123456789abcdef-index.cjs.${variant}.cache`);
    seed(`packages/0123456789abcdef-index.cjs.${variant}.cache.0a0b0c0d0e0f.tmp`, true);
    seed(`packages/0123456789abcdef-index.cjs.${variant}.cache.a1b2c3d4e5f6.tmp`);

    execFileSync(process.execPath, [join(copy, "scripts/bundle-cli.mjs")], { stdio: "pipe" });
    expect(readdirSync(cacheDir).filter((name) => name !== "packages").sort()).toEqual([...kept].sort());
    // A package's cache is named by a path the name cannot be checked against: the next start writes it again.
    expect(readdirSync(join(cacheDir, "packages"))).toEqual([`0123456789abcdef-index.cjs.${variant}.cache.a1b2c3d4e5f6.tmp`]);
  });
});

describe("ctxkit with TZ set empty", { timeout: 120_000 }, () => {
  it("runs the demo (the local zone is UTC, which Intl calls Etc/Unknown)", async () => {
    const exit = await run(resolve("."), ["demo"], { TZ: "" });
    expect(exit.stderr).not.toMatch(/time zone|Etc\/Unknown/);
    expect(exit.code).toBe(0);
  });
});
