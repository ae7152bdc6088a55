import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// Issue 30, item 6: bin/code-cache.js compiles the big chunks of the CLI's bundle with a V8 code
// cache an earlier start left. Untimed: whether the cache is used, and that nothing about a cache
// (corrupt, stale, unwritable) changes what the code does or what the process prints.
const codeCache = resolve("bin/code-cache.js");
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

type Exit = { code: number | null; stdout: string; stderr: string };

// What bin/ctxkit.js passes (it holds the threshold): the big chunk here is well over it, the small one under.
const minLength = 32 * 1024;

function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Exit> {
  const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1", ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  return new Promise((resolvePromise) => child.on("close", (code) => resolvePromise({ code, stdout, stderr })));
}

/**
 * A bundle folder of two chunks, as the bundler writes them: a big one (cached) that requires a
 * small one (not cached), reads `__filename`, and `import()`s an ES-module-only package.
 */
function makeBundle(): { root: string; bundleDir: string; cacheDir: string; bigChunk: string } {
  const root = mkdtempSync(join(tmpdir(), "ctxkit-code-cache-"));
  folders.push(root);
  // For `import("marked")` (ES module only) from the chunks.
  symlinkSync(realpathSync(resolve("node_modules")), join(root, "node_modules"));
  const bundleDir = join(root, "bundle");
  mkdirSync(bundleDir);
  writeFileSync(join(bundleDir, "small.cjs"), `"use strict";\nexports.value = "from the small chunk";\n`);
  // The bundler's module for the chunks' import()s, as it writes it.
  cpSync(resolve("dist/cli-bundle/import-module.cjs"), join(bundleDir, "import-module.cjs"));
  writeBigChunk(join(bundleDir, "big.cjs"), "first");
  return { root, bundleDir, cacheDir: join(bundleDir, "v8-cache"), bigChunk: join(bundleDir, "big.cjs") };
}

/**
 * A chunk well over the size the cache starts at, most of it functions (what V8 caches). Its
 * `import()` goes through the bundle's import module, as the bundler writes it (`imported`), or is
 * left in the chunk.
 */
function writeBigChunk(path: string, version: string, imported: true | string = true): void {
  const filler = Array.from({ length: 1500 }, (_, index) => `function filler${index}(value) { return value * ${index} + ${JSON.stringify(`f${index}`)}.length; }`).join("\n");
  writeFileSync(
    path,
    `"use strict";
${filler}
exports.describe = async () => ({
  version: ${JSON.stringify(version)},
  filename: __filename,
  dirname: __dirname,
  small: require("./small.cjs").value,
  sum: filler1499(2),
  markdown: typeof (await ${imported === true ? 'require("./import-module.cjs")' : imported}("marked")).Marked,
});
`,
  );
}

/** Requires the big chunk with the cache installed; prints what it described and what the cache did. */
async function load(bundle: ReturnType<typeof makeBundle>, extra = "", nodeFlags: string[] = [], env: Record<string, string> = {}): Promise<{ exit: Exit; result: Record<string, unknown>; stats: { used: string[]; rejected: string[]; written: string[] } }> {
  const script = `const { installCodeCache } = require(${JSON.stringify(codeCache)});
const { stats } = installCodeCache({ bundleDir: ${JSON.stringify(bundle.bundleDir)}, cacheDir: ${JSON.stringify(bundle.cacheDir)}, main: require.main, minLength: ${minLength} });
${extra}
let result;
require(${JSON.stringify(bundle.bigChunk)}).describe().then((value) => { result = value; });
process.on("exit", () => process.stdout.write(JSON.stringify({ result, stats })));`;
  const exit = await run([...nodeFlags, "-e", script], bundle.root, env);
  const printed = JSON.parse(exit.stdout || "{}") as { result: Record<string, unknown>; stats: { used: string[]; rejected: string[]; written: string[] } };
  return { exit, ...printed };
}

/** The big chunk's cache files: one per variant of Node and its flags, `big.cjs.<variant>.cache`. */
const cacheFilesOf = (bundle: ReturnType<typeof makeBundle>) => (existsSync(bundle.cacheDir) ? readdirSync(bundle.cacheDir).filter((name) => /^big\.cjs\.[0-9a-f]{16}\.cache$/.test(name)) : []);
function cacheFileOf(bundle: ReturnType<typeof makeBundle>): string {
  const files = cacheFilesOf(bundle);
  expect(files).toHaveLength(1);
  return join(bundle.cacheDir, files[0]!);
}
const headerOf = (path: string) => readFileSync(path, "latin1").split("\n", 1)[0]!;

describe("the code cache of the CLI's bundle", { timeout: 60_000 }, () => {
  it("is written by the first start and used by the second, and the chunk works the same from it", async () => {
    const bundle = makeBundle();
    const expected = { version: "first", filename: bundle.bigChunk, dirname: bundle.bundleDir, small: "from the small chunk", sum: 2 * 1499 + "f1499".length, markdown: "function" };

    const first = await load(bundle);
    expect(first.exit.stderr).toBe("");
    expect(first.result).toEqual(expected);
    expect(first.stats).toEqual({ used: [], rejected: [], written: ["big.cjs"] });
    const written = statSync(cacheFileOf(bundle));

    const second = await load(bundle);
    expect(second.exit.stderr).toBe("");
    expect(second.result).toEqual(expected);
    expect(second.stats).toEqual({ used: ["big.cjs"], rejected: [], written: [] });
    expect(statSync(cacheFileOf(bundle)).mtimeMs).toBe(written.mtimeMs);
    // Only the big chunk is cached; no temporary file is left.
    expect(readdirSync(bundle.cacheDir)).toEqual([basename(cacheFileOf(bundle))]);
    expect(headerOf(cacheFileOf(bundle))).toMatch(/ [0-9a-f]{40} complete$/);
  });

  it.each(["import", "import ", "import/* a comment */ ", "import /* one */ /* two */"])("leaves a chunk that still has an import() of its own (`%s(`) to Node (code from a cache cannot import on Node 20)", async (spelling) => {
    const bundle = makeBundle();
    writeBigChunk(bundle.bigChunk, "first", spelling);
    for (let start = 0; start < 2; start += 1) {
      const loaded = await load(bundle);
      expect(loaded.exit.stderr).toBe("");
      expect(loaded.result?.markdown).toBe("function");
      expect(loaded.stats).toEqual({ used: [], rejected: [], written: [] });
    }
    expect(existsSync(bundle.cacheDir)).toBe(false);
  });

  it("falls back to compiling when the cache is corrupt, and writes a good one", async () => {
    const bundle = makeBundle();
    await load(bundle);
    const good = readFileSync(cacheFileOf(bundle));
    const header = good.subarray(0, good.indexOf(10) + 1);

    // Garbage where V8's data should be, under the right header: V8 refuses it.
    writeFileSync(cacheFileOf(bundle), Buffer.concat([header, Buffer.from("not V8's code cache at all".repeat(100))]));
    const afterGarbage = await load(bundle);
    expect(afterGarbage.exit.stderr).toBe("");
    expect(afterGarbage.result?.version).toBe("first");
    expect(afterGarbage.stats).toEqual({ used: [], rejected: ["big.cjs"], written: ["big.cjs"] });

    // Cut short, and a file with no header at all.
    for (const corrupt of [good.subarray(0, Math.floor(good.length / 2)), Buffer.from([0, 1, 2, 3])]) {
      writeFileSync(cacheFileOf(bundle), corrupt);
      const loaded = await load(bundle);
      expect(loaded.exit.stderr).toBe("");
      expect(loaded.result?.version).toBe("first");
      expect(loaded.stats.used).toEqual([]);
      expect(loaded.stats.written).toEqual(["big.cjs"]);
    }
    expect((await load(bundle)).stats.used).toEqual(["big.cjs"]);
  });

  it("is not used for a chunk whose content changed, even at the same length", async () => {
    const bundle = makeBundle();
    await load(bundle);
    const before = readFileSync(bundle.bigChunk, "utf8");
    writeBigChunk(bundle.bigChunk, "other");
    expect(readFileSync(bundle.bigChunk, "utf8").length).toBe(before.length);
    const changed = await load(bundle);
    expect(changed.exit.stderr).toBe("");
    expect(changed.result?.version).toBe("other");
    expect(changed.stats).toEqual({ used: [], rejected: [], written: ["big.cjs"] });
    expect((await load(bundle)).stats.used).toEqual(["big.cjs"]);
  });

  it("keys a chunk by its length, size and time, not a hash of its content: a chunk written again is compiled afresh once", async () => {
    const bundle = makeBundle();
    await load(bundle);
    const { size, mtimeMs } = statSync(bundle.bigChunk);
    const length = readFileSync(bundle.bigChunk, "utf8").length;
    expect(headerOf(cacheFileOf(bundle))).toMatch(new RegExp(`^ctxkit-v8-cache-3 ${process.version} ${process.arch} ${length} ${size} ${mtimeMs} [0-9a-f]{40} complete$`));
    // The same content written again: another time, so the cache made before is not taken for it.
    writeFileSync(bundle.bigChunk, readFileSync(bundle.bigChunk));
    expect(statSync(bundle.bigChunk).mtimeMs).not.toBe(mtimeMs);
    const rewritten = await load(bundle);
    expect(rewritten.exit.stderr).toBe("");
    expect(rewritten.result?.version).toBe("first");
    expect(rewritten.stats).toEqual({ used: [], rejected: [], written: ["big.cjs"] });
    expect((await load(bundle)).stats.used).toEqual(["big.cjs"]);
  });

  it("keys a package's file by its content: a version of the same length under the same path and time is not taken for it", async () => {
    const bundle = makeBundle();
    const packageFile = join(bundle.root, "packages/node_modules/big-cjs/index.js");
    mkdirSync(dirname(packageFile), { recursive: true });
    const filler = Array.from({ length: 1500 }, (_, index) => `function filler${index}(value) { return value * ${index}; }`).join("\n");
    const writePackage = (version: string) => writeFileSync(packageFile, `"use strict";\n${filler}\nexports.version = ${JSON.stringify(version)};\n`);
    // Whole seconds, which a copy can restore exactly (as npm's 1985 or a tar's times are).
    const packageTime = 1_700_000_000;
    writePackage("1.0.0");
    utimesSync(packageFile, packageTime, packageTime);
    const extra = `const packageVersion = require(${JSON.stringify(packageFile)}).version;\nprocess.on("exit", () => process.stderr.write(packageVersion));`;
    const first = await load(bundle, extra);
    expect(first.exit.stderr).toBe("1.0.0");
    expect(first.stats.written).toContain("index.js");
    expect((await load(bundle, extra)).stats.used).toContain("index.js");
    // Another version, as long, put in place with the first one's time (a copy that keeps times).
    const before = statSync(packageFile);
    writePackage("1.0.1");
    utimesSync(packageFile, packageTime, packageTime);
    expect(statSync(packageFile)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });
    const upgraded = await load(bundle, extra);
    expect(upgraded.exit.stderr).toBe("1.0.1");
    expect(upgraded.stats.used).not.toContain("index.js");
    expect(upgraded.stats.written).toContain("index.js");
  });

  it("runs without one when its folder cannot be written, and leaves the program's warnings alone", async () => {
    const bundle = makeBundle();
    // A file where the cache's folder would be: every write fails.
    writeFileSync(bundle.cacheDir, "");
    const warning = `process.emitWarning("a warning of the program's own", "ExperimentalWarning");`;
    for (let start = 0; start < 2; start += 1) {
      const loaded = await load(bundle, warning);
      expect(loaded.exit.code).toBe(0);
      expect(loaded.result?.version).toBe("first");
      expect(loaded.stats).toEqual({ used: [], rejected: [], written: [] });
      expect(loaded.exit.stderr).toContain("ExperimentalWarning: a warning of the program's own");
    }
    expect(statSync(bundle.cacheDir).isFile()).toBe(true);
  });

  it("checks V8's data against the header's digest: damaged data (header intact) is compiled without it and rewritten", async () => {
    const bundle = makeBundle();
    await load(bundle);
    const path = cacheFileOf(bundle);
    const good = readFileSync(path);
    const dataStart = good.indexOf(10) + 1;
    // 64 bytes flipped in the middle of V8's data: handed to V8, this ends the process with a fatal error.
    const damaged = Buffer.from(good);
    const middle = dataStart + Math.floor((good.length - dataStart) / 2);
    for (let index = middle; index < middle + 64; index += 1) damaged[index] = damaged[index]! ^ 0xff;
    writeFileSync(path, damaged);

    const loaded = await load(bundle);
    expect(loaded.exit.code).toBe(0);
    expect(loaded.exit.stderr).toBe("");
    expect(loaded.result?.version).toBe("first");
    expect(loaded.stats).toEqual({ used: [], rejected: ["big.cjs"], written: ["big.cjs"] });
    const rewritten = readFileSync(path);
    expect(rewritten.equals(damaged)).toBe(false);
    expect((await load(bundle)).stats).toEqual({ used: ["big.cjs"], rejected: [], written: [] });
  });

  it("marks a cache written by a process that did not exit 0 partial, and a later start that exits 0 writes it again", async () => {
    const bundle = makeBundle();
    const failing = await load(bundle, "process.exitCode = 2;");
    expect(failing.exit.code).toBe(2);
    expect(failing.stats.written).toEqual(["big.cjs"]);
    expect(headerOf(cacheFileOf(bundle))).toMatch(/ partial$/);

    // Used, and still partial after another start that fails.
    const failingAgain = await load(bundle, "process.exitCode = 2;");
    expect(failingAgain.stats).toEqual({ used: ["big.cjs"], rejected: [], written: [] });
    expect(headerOf(cacheFileOf(bundle))).toMatch(/ partial$/);

    const succeeding = await load(bundle);
    expect(succeeding.exit.code).toBe(0);
    expect(succeeding.result?.version).toBe("first");
    expect(succeeding.stats).toEqual({ used: ["big.cjs"], rejected: [], written: ["big.cjs"] });
    expect(headerOf(cacheFileOf(bundle))).toMatch(/ complete$/);

    // Complete: used, never written again.
    expect((await load(bundle)).stats).toEqual({ used: ["big.cjs"], rejected: [], written: [] });
  });

  it("keeps a cache per variant of Node's flags and NODE_OPTIONS, each used by its own", async () => {
    const bundle = makeBundle();
    const variants: Array<{ flags: string[]; env: Record<string, string> }> = [
      { flags: [], env: {} },
      { flags: ["--no-opt"], env: {} },
      { flags: [], env: { NODE_OPTIONS: "--max-old-space-size=512" } },
    ];
    for (const variant of variants) {
      const first = await load(bundle, "", variant.flags, variant.env);
      expect(first.exit.stderr).toBe("");
      expect(first.stats).toEqual({ used: [], rejected: [], written: ["big.cjs"] });
    }
    expect(cacheFilesOf(bundle)).toHaveLength(variants.length);
    for (const variant of variants) {
      const again = await load(bundle, "", variant.flags, variant.env);
      expect(again.result?.version).toBe("first");
      expect(again.stats).toEqual({ used: ["big.cjs"], rejected: [], written: [] });
    }
  });

  it("leaves an ES module that require() loads (Node 20.19+: format \"module\") to Node, which compiles it as a module", async () => {
    const bundle = makeBundle();
    const packageDir = join(bundle.root, "esm-packages/node_modules/big-esm");
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(join(packageDir, "package.json"), JSON.stringify({ name: "big-esm", type: "module", main: "index.js" }));
    const filler = Array.from({ length: 1500 }, (_, index) => `function filler${index}(value) { return value * ${index} + ${JSON.stringify(`f${index}`)}.length; }`).join("\n");
    // What only a module sees: `this` undefined at its top level, `import.meta`, strict mode.
    writeFileSync(
      join(packageDir, "index.js"),
      `${filler}\nexport const topLevelThis = typeof this;\nexport const metaUrl = typeof import.meta.url;\nexport const strict = (function () { return this === undefined; })();\nexport const sum = filler1499(2);\n`,
    );
    expect(readFileSync(join(packageDir, "index.js"), "utf8").length).toBeGreaterThan(minLength);
    const extra = `globalThis.esm = require(${JSON.stringify(packageDir)});
process.on("exit", () => process.stderr.write(JSON.stringify({ esm: { ...globalThis.esm } })));`;
    for (let start = 0; start < 2; start += 1) {
      const loaded = await load(bundle, extra);
      expect(loaded.exit.code).toBe(0);
      expect(JSON.parse(loaded.exit.stderr)).toEqual({ esm: { topLevelThis: "undefined", metaUrl: "string", strict: true, sum: 2 * 1499 + "f1499".length } });
      expect(loaded.result?.version).toBe("first");
    }
    // The package's file has no cache of its own; the chunk has.
    expect(existsSync(join(bundle.cacheDir, "packages"))).toBe(false);
    expect(cacheFilesOf(bundle)).toHaveLength(1);
  });
});

describe("ctxkit with the code cache", { timeout: 120_000 }, () => {
  it("writes it on the first start, reuses it after, and recovers from a corrupt one", async () => {
    // A copy of the built package, so the caches written here leave the worktree's alone.
    const copy = mkdtempSync(join(tmpdir(), "ctxkit-code-cache-cli-"));
    folders.push(copy);
    for (const part of ["bin", "dist", "package.json"]) cpSync(resolve(part), join(copy, part), { recursive: true });
    for (const shared of ["node_modules", "data"]) symlinkSync(realpathSync(resolve(shared)), join(copy, shared));
    const cacheDir = join(copy, "dist/cli-bundle/v8-cache");
    rmSync(cacheDir, { recursive: true, force: true });
    const bin = join(copy, "bin/ctxkit.js");

    const first = await run([bin, "demo"], copy);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const chunkCaches = readdirSync(cacheDir).filter((name) => name.endsWith(".cache"));
    // The run's chunk (the biggest) is among them; every cache is of a chunk of this bundle.
    // Named `<chunk>.<variant>.cache`: one variant here (one Node, no flags).
    expect(chunkCaches.some((name) => /^run-.+\.cjs\.[0-9a-f]{16}\.cache$/.test(name))).toBe(true);
    for (const name of chunkCaches) expect(existsSync(join(copy, "dist/cli-bundle", name.replace(/\.[0-9a-f]{16}\.cache$/, "")))).toBe(true);
    // A package's big CommonJS file a chunk requires would be cached too, by its path (see "a
    // package's file" above); the run requires none since the config validator is bundled in.
    const packageCaches = existsSync(join(cacheDir, "packages")) ? readdirSync(join(cacheDir, "packages")) : [];
    const caches = [...chunkCaches, ...packageCaches.map((name) => join("packages", name))];
    const times = caches.map((name) => statSync(join(cacheDir, name)).mtimeMs);

    // Used, so not written again.
    const second = await run([bin, "demo"], copy);
    expect(second.stderr).toBe("");
    expect(second.stdout).toContain("Run ended: final_answer");
    expect(caches.map((name) => statSync(join(cacheDir, name)).mtimeMs)).toEqual(times);

    // 64 bytes flipped in the middle of each cache's V8 data, the header intact: V8 handed such
    // data ends the process with a fatal error (exit 133), at every start after.
    const runCache = join(cacheDir, chunkCaches.reduce((biggest, name) => (statSync(join(cacheDir, name)).size > statSync(join(cacheDir, biggest)).size ? name : biggest)));
    for (const name of caches) {
      const file = readFileSync(join(cacheDir, name));
      const dataStart = file.indexOf(10) + 1;
      const middle = dataStart + Math.floor((file.length - dataStart) / 2);
      for (let index = middle; index < Math.min(middle + 64, file.length); index += 1) file[index] = file[index]! ^ 0xff;
      writeFileSync(join(cacheDir, name), file);
    }
    const damagedRun = readFileSync(runCache);
    const damaged = await run([bin, "demo"], copy);
    expect(damaged.stderr).toBe("");
    expect(damaged.code).toBe(0);
    expect(damaged.stdout).toContain("Run ended: final_answer");
    expect(readFileSync(runCache).equals(damagedRun)).toBe(false);
    const afterDamage = caches.map((name) => statSync(join(cacheDir, name)).mtimeMs);
    const rewritten = await run([bin, "demo"], copy);
    expect(rewritten.code).toBe(0);
    expect(caches.map((name) => statSync(join(cacheDir, name)).mtimeMs)).toEqual(afterDamage);

    for (const name of caches) writeFileSync(join(cacheDir, name), "corrupt");
    const corrupt = await run([bin, "demo"], copy);
    expect(corrupt.stderr).toBe("");
    expect(corrupt.code).toBe(0);
    expect(corrupt.stdout).toContain("Run ended: final_answer");
    for (const name of caches) expect(readFileSync(join(cacheDir, name)).length).toBeGreaterThan("corrupt".length);

    // CTXKIT_NO_CODE_CACHE=1: compiled as Node would, and nothing written.
    rmSync(cacheDir, { recursive: true, force: true });
    const without = await run([bin, "demo"], copy, { CTXKIT_NO_CODE_CACHE: "1" });
    expect(without.code).toBe(0);
    expect(without.stdout).toContain("Run ended: final_answer");
    expect(existsSync(cacheDir)).toBe(false);
    // "0" (and "") leave it on.
    const zero = await run([bin, "demo"], copy, { CTXKIT_NO_CODE_CACHE: "0" });
    expect(zero.code).toBe(0);
    expect(readdirSync(cacheDir).some((name) => /^run-.+\.cache$/.test(name))).toBe(true);
  });
});
