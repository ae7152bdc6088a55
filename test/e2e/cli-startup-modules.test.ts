import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";

// Issue 30, item 6: the CLI took about 1 s to start, loading what the first request does not
// need. Untimed: the modules the built binary has loaded when `run --help` exits, and when a run's
// first request reaches the model server, must not include the packages that load on first use,
// and ctxkit's own code comes as a few chunks of the CLI's bundle (dist/cli-bundle) — a run loaded
// some 360 separate modules of dist/ before. (`ctxkit bench startup` measures the time.)
const loadedOnFirstUse = ["ajv", "marked", "marked-terminal", "highlight.js", "linkedom", "@mozilla/readability", "yaml", "diff", "re2js", "fastest-levenshtein", "minisearch", "unhomoglyph", "zod"];

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const bin = resolve("bin/ctxkit.js");
const recorder = resolve("test/e2e/fixtures/record-resolved-modules.mjs");
const intlRecorder = resolve("test/e2e/fixtures/record-intl-use.mjs");

/** ctxkit's own modules: dist/ (the bin script itself aside). */
function ownModulesIn(urls: readonly string[]): string[] {
  return [...new Set(urls.filter((url) => url.startsWith("file:") && !url.includes("/node_modules/") && url.includes("/dist/")))];
}

function packagesIn(urls: readonly string[]): string[] {
  const names = urls.filter((url) => url.includes("/node_modules/")).map((url) => {
    const parts = url.slice(url.lastIndexOf("/node_modules/") + "/node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  });
  return [...new Set(names)].sort();
}

async function loadedBy(args: string[], until: "exit" | "first-request", intl?: { timeZone: string; uses: string[] }): Promise<string[]> {
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-startup-modules-"));
  const file = join(cwd, "modules.txt");
  const intlFile = join(cwd, "intl.txt");
  // With intl: in that time zone, what used ICU before the first request (the recorder stops there).
  const requestsBefore = server?.requests.length ?? 0;
  const intlRecording = intl ? { preload: ["--import", intlRecorder], env: { CTXKIT_RECORD_INTL: intlFile, TZ: intl.timeZone } } : { preload: [], env: {} };
  const child = spawn(process.execPath, ["--import", recorder, ...intlRecording.preload, bin, ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1", CTXKIT_RECORD_MODULES: file, ...intlRecording.env }, stdio: "ignore" });
  const exited = new Promise<void>((resolvePromise) => child.once("exit", () => resolvePromise()));
  if (until === "exit") await exited;
  else {
    const requested = new Promise<void>((resolvePromise) => {
      const poll = setInterval(() => {
        if ((server?.requests.length ?? 0) > requestsBefore) {
          clearInterval(poll);
          resolvePromise();
        }
      }, 2);
      void exited.then(() => clearInterval(poll));
    });
    await Promise.race([requested, exited]);
    expect(server!.requests.length, "the run sent its first request").toBeGreaterThan(requestsBefore);
  }
  const urls = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
  if (intl) intl.uses.push(...(await readFile(intlFile, "utf8").catch(() => "")).split("\n").filter((line) => line !== ""));
  child.kill("SIGKILL");
  await exited;
  return urls;
}

describe("what the CLI loads before it needs it", () => {
  it("`ctxkit run --help` loads nothing of the bundle: the binary prints it from help.json", async () => {
    const urls = await loadedBy(["run", "--help"], "exit");
    expect(ownModulesIn(urls)).toEqual([]);
    expect(packagesIn(urls)).toEqual([]);
  });

  it("a help request help.json does not hold loads no third-party package", async () => {
    const urls = await loadedBy(["run", "--model", "m", "--help"], "exit");
    const own = ownModulesIn(urls);
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((url) => !url.includes("/dist/cli-bundle/")), "every own module comes from the bundle").toEqual([]);
    // main, termination-signals and the help text's chunk, with what they share.
    expect(own.length).toBeLessThanOrEqual(8);
    expect(packagesIn(urls)).toEqual([]);
  });

  it("a run has loaded none of the first-use packages when its first request reaches the model", async () => {
    server = await startOpenAIModelServer(() => "Done.");
    const urls = await loadedBy(["run", "--base-url", server.baseURL, "--model", "m", "--yes", "Say done."], "first-request");
    const packages = packagesIn(urls);
    expect(packages.filter((name) => loadedOnFirstUse.includes(name))).toEqual([]);
    // None at all: the config schema's validator (valibot) is bundled into the run's chunk, the
    // few functions the schema uses (scripts/bundle-cli.mjs), and nothing unlisted slips in unseen.
    expect(packages).toEqual([]);
    // ctxkit's own code: chunks of the bundle only (a module of dist/ loaded beside them would be a
    // second copy), and a handful of them (the run path and the chosen provider are a chunk each)
    // where some 360 modules loaded unbundled. The providers not chosen are chunks of their own.
    const own = ownModulesIn(urls);
    expect(own.filter((url) => !url.includes("/dist/cli-bundle/")), "every own module comes from the bundle").toEqual([]);
    expect(own.length).toBeGreaterThan(0);
    expect(own.length).toBeLessThanOrEqual(10);
    expect(own.filter((url) => /\/provider-(anthropic|openai-responses|llama)-[^/]*\.c?js$/.test(url))).toEqual([]);
    // Each start reads them into strings: all ASCII, which Node decodes into a string of one byte a
    // character (one other character made the whole 900 KB run chunk a string of two bytes a character).
    const nonAscii = await Promise.all(own.map(async (url) => ({ url, found: /[\u0080-\uffff]/.exec(await readFile(new URL(url), "utf8"))?.[0] })));
    expect(nonAscii.filter((chunk) => chunk.found !== undefined)).toEqual([]);
  });

  it("the run command's modules load none of Node's modules that only a tool call, a prompt or a tokenizer needs", async () => {
    // child_process (and the dgram it loads; net too, which the pipe to this test loads anyway), worker_threads, dns/promises, readline and
    // zlib are required by the bash, grep, web_fetch, confirmation and Qwen3 code that uses them (fetch loads
    // worker_threads and zlib at the first request anyway: a run's real savings are the other four).
    const script = `import(${JSON.stringify(pathToFileURL(resolve("dist/cli/commands/run-command.js")).href)}).then(() => process.stdout.write(JSON.stringify(process.moduleLoadList)))`;
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    await new Promise((resolvePromise) => child.once("close", resolvePromise));
    const loaded = (JSON.parse(stdout) as string[]).filter((entry) => entry.startsWith("NativeModule ")).map((entry) => entry.slice("NativeModule ".length));
    expect(loaded).toContain("fs/promises");
    expect(loaded.filter((name) => ["child_process", "dgram", "worker_threads", "dns/promises", "readline", "zlib"].includes(name))).toEqual([]);
  });

  it("a run on a UTC host starts ICU for no number or date before its first request", async () => {
    // The first Intl formatter of a process costs 20–50 ms; the timestamps, the clock line and the
    // counts in tool descriptions of the first request are written without one on UTC.
    server = await startOpenAIModelServer(() => "Done.");
    const args = ["run", "--base-url", server.baseURL, "--model", "m", "--yes", "Say done."];
    const onUtc = { timeZone: "UTC", uses: [] as string[] };
    await loadedBy(args, "first-request", onUtc);
    expect(onUtc.uses).toEqual([]);
    // Elsewhere the zone's name and its local time come from ICU (and the recorder does record).
    const inBerlin = { timeZone: "Europe/Berlin", uses: [] as string[] };
    await loadedBy(args, "first-request", inBerlin);
    expect(inBerlin.uses.some((use) => use.startsWith("Intl.DateTimeFormat"))).toBe(true);
  });
});
