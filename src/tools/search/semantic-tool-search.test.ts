import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { createOpenAIEmbedder } from "../../providers/openai-compatible/create-openai-embedder.js";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import type { AgentEvent, ToolDefinition } from "../../types/index.js";
import { defineTool } from "../tool.js";
import { resolveDeferredTools } from "./resolve-deferred-tools.js";
import { createToolSearchPolicy } from "./create-tool-search-policy.js";
import { createSemanticToolSearch, fuseRankings } from "./semantic-tool-search.js";
import { createToolSearchIndex } from "./tool-search-index.js";
import { startEmbeddingsTestServer, type EmbeddingsTestServer } from "./test-support/embeddings-test-server.js";

const tool = (name: string, description: string): ToolDefinition => ({ name, description, parameters: { type: "object", properties: { number: { type: "integer" } } } });
const tools = [
  tool("get_pull_request", "Get the details of a pull request: title, state, author, branches."),
  tool("merge_pull_request", "Merge a pull request into its base branch."),
  tool("list_pull_request_reviews", "List the reviews left on a pull request."),
  tool("create_issue", "Open a new issue in a repository."),
  tool("list_commits", "List the commits of a branch."),
];
// Shares only "pull request" with the reviews tool; "signed off" means review only to a model.
const query = "who signed off on the pull request";

let server: EmbeddingsTestServer;
beforeAll(async () => {
  server = await startEmbeddingsTestServer();
});
afterAll(() => server.close());

const embedder = (options: { encodingFormat?: "float" | "base64" } = {}) => createOpenAIEmbedder({ baseURL: server.baseURL, model: "test-embed", ...options });

const deferredTools = tools.map((definition) => defineTool<{ number?: number }>({ ...definition, deferred: true, async execute() { return "ok"; } }));
const agentSearch = () => ({ embeddings: { embedder: embedder(), timeoutMs: 300, semanticWeight: 2 } });

/** An agent over the deferred tools with the test server's embedder, scripted to search once (two matches) and answer. */
function searchingAgent(runtime: NonNullable<Parameters<typeof createAgent>[0]["runtime"]>) {
  const provider = createScriptedProvider({ turns: [{ toolCalls: [{ id: "s1", name: "tool_search", arguments: { query, limit: 2 } }] }, "Found it."] });
  const agent = createAgent({ provider, system: "s", ...resolveDeferredTools({ tools: deferredTools, context: [], toolSearch: agentSearch(), nativeToolSearch: false }), runtime });
  return { provider, agent };
}

describe("semantic tool search over a /v1/embeddings server", () => {
  it("fuses the model's ranking with the words': the tool whose meaning matches rises, and leads where words find nothing", async () => {
    server.mode = "ok";
    const lexical = createToolSearchIndex(tools);
    // Words alone: the reviews tool is third (merge_pull_request's text is shortest).
    expect(lexical.search(query, 3).map((hit) => hit.name)).toEqual(["merge_pull_request", "get_pull_request", "list_pull_request_reviews"]);
    for (const encodingFormat of ["float", "base64"] as const) {
      const semantic = createSemanticToolSearch(tools, lexical, { embedder: embedder({ encodingFormat }) });
      // The model ranks it first: 1/61 + 1/63 ties merge_pull_request's 1/61 + 1/63 (ties keep the words' order), ahead of get_pull_request's 2/62.
      expect((await semantic.search(query, 3)).map((hit) => hit.name)).toEqual(["merge_pull_request", "list_pull_request_reviews", "get_pull_request"]);
      // No word of "who approved it" is in the catalog: the model's ranking alone.
      expect(lexical.search("who approved it", 3)).toEqual([]);
      expect((await semantic.search("who approved it", 1)).map((hit) => hit.name)).toEqual(["list_pull_request_reviews"]);
    }
    expect(server.requests.at(-1)).toMatchObject({ model: "test-embed", input: ["who approved it"], encoding_format: "base64" });
    const weighted = createSemanticToolSearch(tools, lexical, { embedder: embedder(), semanticWeight: 2 });
    expect((await weighted.search(query, 1))[0]?.name).toBe("list_pull_request_reviews");
  });

  it("embeds each tool text once per embedder, and only the query on later searches", async () => {
    server.mode = "ok";
    const shared = embedder();
    const before = server.requests.length;
    const first = createSemanticToolSearch(tools, createToolSearchIndex(tools), { embedder: shared });
    await first.search(query, 5);
    await first.search("merge it", 5);
    // A rebuilt catalog with one new tool embeds that tool only.
    const grown = [...tools, tool("list_review_comments", "List the comments of a review.")];
    await createSemanticToolSearch(grown, createToolSearchIndex(grown), { embedder: shared }).search(query, 5);
    const inputs = server.requests.slice(before).map((request) => request.input.length);
    expect(inputs).toEqual([tools.length, 1, 1, 1, 1]);
  });

  it("falls back to the words' ranking with a warning when the server answers garbage, fails or goes silent", async () => {
    const lexical = createToolSearchIndex(tools);
    const expected = lexical.search(query, 5);
    for (const mode of ["garbage", "http-500", "uneven", "silent"] as const) {
      server.mode = mode;
      const warnings: string[] = [];
      const semantic = createSemanticToolSearch(tools, lexical, { embedder: embedder(), timeoutMs: 200 }, (warning) => warnings.push(`${warning.code}: ${warning.message}`));
      expect(await semantic.search(query, 5)).toEqual(expected);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^embeddings_unavailable: Tool search fell back to words only/);
    }
    expect(server.requests.length).toBeGreaterThan(0);
    server.mode = "ok";
  });

  it("stops asking after three failures in a row", async () => {
    server.mode = "http-500";
    const warnings: string[] = [];
    const semantic = createSemanticToolSearch(tools, createToolSearchIndex(tools), { embedder: embedder() }, (warning) => warnings.push(warning.message));
    const before = server.requests.length;
    for (let search = 0; search < 5; search += 1) await semantic.search(query, 5);
    expect(server.requests.length - before).toBe(3);
    expect(warnings.at(-1)).toContain("off for this catalog");
    server.mode = "ok";
  });

  it("runs in an agent: tool_search returns the fused ranking and the run warns instead of failing when the server breaks", async () => {
    server.mode = "ok";
    const run = async (id: string) => {
      const { agent } = searchingAgent({ clock: createTestClock(), createId: createTestIds(id) });
      const events: AgentEvent[] = [];
      for await (const event of agent.run("Who approved it?")) events.push(event);
      const discovery = agent.messages.find((message) => message.meta.derived?.kind === "tool_discovery");
      return { events, names: discovery?.meta.derived?.kind === "tool_discovery" ? discovery.meta.derived.names : [] };
    };
    const fused = await run("ok");
    expect(fused.names[0]).toBe("list_pull_request_reviews");
    expect(fused.events.filter((event) => event.type === "warning" || event.type === "error")).toEqual([]);
    server.mode = "silent";
    const fallback = await run("silent");
    server.mode = "ok";
    expect(fallback.events.filter((event) => event.type === "error")).toEqual([]);
    expect(fallback.names).toEqual(createToolSearchIndex(tools).search(query, 2).map((hit) => hit.name));
    expect(fallback.events.filter((event) => event.type === "warning")).toMatchObject([{ code: "embeddings_unavailable" }]);
  });
});

describe("semantic tool search when the model behind an embedder changes", () => {
  it("drops the cached tool vectors of another length and embeds the tools again, once, without falling back", async () => {
    let dimensions = 3;
    const calls: number[] = [];
    const changing = {
      id: "changing",
      async embed(texts: readonly string[]) {
        calls.push(texts.length);
        return texts.map((text) => Float32Array.from({ length: dimensions }, (_, at) => (text.length % (at + 2)) + 1));
      },
    };
    const warnings: unknown[] = [];
    await createSemanticToolSearch(tools, createToolSearchIndex(tools), { embedder: changing }, (warning) => warnings.push(warning)).search(query, 3);
    expect(calls).toEqual([5, 1]);
    dimensions = 4;
    // Same catalog: every tool vector is cached, the query's is longer.
    expect(await createSemanticToolSearch(tools, createToolSearchIndex(tools), { embedder: changing }, (warning) => warnings.push(warning)).search(query, 3)).toHaveLength(3);
    expect(calls).toEqual([5, 1, 1, 5]);
    dimensions = 5;
    // A grown catalog: the new tool's vector is longer than the cached ones.
    const grown = [...tools, tool("list_review_comments", "List the comments of a review.")];
    expect(await createSemanticToolSearch(grown, createToolSearchIndex(grown), { embedder: changing }, (warning) => warnings.push(warning)).search(query, 3)).toHaveLength(3);
    expect(calls).toEqual([5, 1, 1, 5, 1, 6, 1]);
    expect(warnings).toEqual([]);
  });
});

describe("semantic tool search over an in-process embedder", () => {
  it("takes the embedder's preferred batch size, so the vectors finished before a failure are kept", async () => {
    const calls: string[][] = [];
    let failAt = 3;
    const local = {
      id: "local",
      preferred: { batchSize: 1, timeoutMs: 60_000 },
      async embed(texts: readonly string[]) {
        calls.push([...texts]);
        if (calls.length === failAt) throw new Error("the model stopped.");
        return texts.map((text) => Float32Array.from({ length: 3 }, (_, at) => (text.length % (at + 2)) + 1));
      },
    };
    const warnings: unknown[] = [];
    const search = createSemanticToolSearch(tools, createToolSearchIndex(tools), { embedder: local }, (warning) => warnings.push(warning));
    await search.search(query, 3);
    expect(calls.map((call) => call.length)).toEqual([1, 1, 1]);
    expect(warnings).toHaveLength(1);
    failAt = 0;
    await search.search(query, 3);
    // The two tools embedded before the failure are not asked again: three more tools, then the query.
    expect(calls.map((call) => call.length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(new Set(calls.slice(0, 2).flat()).size + new Set(calls.slice(3, 6).flat()).size).toBe(tools.length);
  });
});

describe("semantic tool search across a restart", () => {
  it("defines after a restart exactly the tools the stored result returned, even when the embedder now fails", async () => {
    server.mode = "ok";
    const { agent } = searchingAgent({ clock: createTestClock(), createId: createTestIds("r") });
    await agent.run("Who approved it?").result();
    const messages = [...agent.messages];
    const resultAt = messages.findIndex((message) => message.role === "tool" && message.toolCallId === "s1");
    const stored = messages[resultAt + 1]!;
    expect(stored.meta.derived).toMatchObject({ kind: "tool_discovery", names: ["list_pull_request_reviews", "get_pull_request"] });
    expect(messages[resultAt]!.meta.toolSearch).toEqual({ names: ["list_pull_request_reviews", "get_pull_request"] });
    // Words alone would promise other tools: a search run again with the server down would diverge.
    expect(createToolSearchIndex(tools).search(query, 2).map((hit) => hit.name)).not.toEqual(["list_pull_request_reviews", "get_pull_request"]);

    // A restart between the result and the next call (a crash, a durable replay): a fresh policy, the server down.
    server.mode = "http-500";
    const warnings: unknown[] = [];
    const resumed = createToolSearchPolicy(deferredTools, { ...agentSearch(), onWarning: (warning) => warnings.push(warning) });
    const edits = await resumed.prepareContext!({ messages: messages.slice(0, resultAt + 1), prefix: { system: { staticText: "" }, tools: [] }, iteration: 1, now: new Date(stored.meta.createdAt), overflow: false, signal: new AbortController().signal });
    server.mode = "ok";
    expect(JSON.stringify(edits?.[0]?.messages)).toBe(JSON.stringify([stored]));
    // The names were read, not searched for: the embedder was not asked.
    expect(warnings).toEqual([]);
  });
});

describe("semantic tool search in a durable replay", () => {
  it("sends byte-identical requests when the replayed run's embedder fails (the tool_search step's output is replayed, not run)", async () => {
    // What a durable step store does: the first run records each call's output, the replay returns it without running the tool.
    const steps = new Map<string, unknown>();
    const run = async (replay: boolean) => {
      const { provider, agent } = searchingAgent({
        clock: createTestClock(),
        createId: createTestIds("d"),
        wrapTool: (tool) => ({
          ...tool,
          async execute(args, context) {
            if (replay) return steps.get(context.toolCallId) as Awaited<ReturnType<typeof tool.execute>>;
            const output = await tool.execute(args, context);
            steps.set(context.toolCallId, JSON.parse(JSON.stringify(output)));
            return output;
          },
        }),
      });
      await agent.run("Who approved it?").result();
      return provider.bodies.map((body) => body.body ?? JSON.stringify(body));
    };
    server.mode = "ok";
    const first = await run(false);
    server.mode = "http-500";
    const replayed = await run(true);
    server.mode = "ok";
    expect(replayed).toEqual(first);
    expect(first[1]).toContain("list_pull_request_reviews");
  });
});

describe("fuseRankings", () => {
  it("adds 1 / (k + rank) from each ranking; a tool high in both beats one first in only one", () => {
    const fused = fuseRankings(["a", "b", "c", "d", "e"], ["e", "b"], { fusionK: 60, semanticWeight: 1, candidates: 50 });
    expect(fused.map((hit) => hit.name)).toEqual(["b", "e", "a", "c", "d"]);
    expect(fused[0]!.score).toBeCloseTo(2 / 62);
  });
});
