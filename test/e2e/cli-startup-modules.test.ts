import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";

// Issue 30, item 6: the CLI took about 1 s to start, loading what the first request does not
// need. Untimed: the modules the built binary has loaded when `run --help` exits, and when a run's
// first request reaches the model server, must not include the packages that load on first use.
// (`ctxkit bench startup` measures the time.)
const loadedOnFirstUse = ["ajv", "marked", "marked-terminal", "highlight.js", "linkedom", "@mozilla/readability", "yaml", "diff", "re2js", "fastest-levenshtein", "minisearch", "unhomoglyph", "zod"];

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const bin = resolve("bin/ctxkit.js");
const recorder = resolve("test/e2e/fixtures/record-resolved-modules.mjs");

function packagesIn(urls: readonly string[]): string[] {
  const names = urls.filter((url) => url.includes("/node_modules/")).map((url) => {
    const parts = url.slice(url.lastIndexOf("/node_modules/") + "/node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  });
  return [...new Set(names)].sort();
}

async function loadedBy(args: string[], until: "exit" | "first-request"): Promise<string[]> {
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-startup-modules-"));
  const file = join(cwd, "modules.txt");
  const child = spawn(process.execPath, ["--import", recorder, bin, ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1", CTXKIT_RECORD_MODULES: file }, stdio: "ignore" });
  const exited = new Promise<void>((resolvePromise) => child.once("exit", () => resolvePromise()));
  if (until === "exit") await exited;
  else {
    const requested = new Promise<void>((resolvePromise) => {
      const poll = setInterval(() => {
        if ((server?.requests.length ?? 0) > 0) {
          clearInterval(poll);
          resolvePromise();
        }
      }, 2);
      void exited.then(() => clearInterval(poll));
    });
    await Promise.race([requested, exited]);
    expect(server!.requests.length, "the run sent its first request").toBeGreaterThan(0);
  }
  const urls = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
  child.kill("SIGKILL");
  await exited;
  return urls;
}

describe("what the CLI loads before it needs it", () => {
  it("`ctxkit run --help` loads no third-party package", async () => {
    const urls = await loadedBy(["run", "--help"], "exit");
    expect(urls.some((url) => url.includes("/dist/cli/"))).toBe(true);
    expect(packagesIn(urls)).toEqual([]);
  });

  it("a run has loaded none of the first-use packages when its first request reaches the model", async () => {
    server = await startOpenAIModelServer(() => "Done.");
    const urls = await loadedBy(["run", "--base-url", server.baseURL, "--model", "m", "--yes", "Say done."], "first-request");
    const packages = packagesIn(urls);
    expect(packages.filter((name) => loadedOnFirstUse.includes(name))).toEqual([]);
    // What it does load: the config schema's validator (and nothing unlisted slips in unseen).
    expect(packages).toEqual(["valibot"]);
  });
});
