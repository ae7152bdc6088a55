import { describe, expect, it } from "vitest";
import type { Tool, ToolDefinition } from "../../types/index.js";
import { createToolCatalog } from "./tool-catalog.js";
import { createToolSearchIndex, parameterDescriptions, parameterNames, splitIntoKnownWords, wordNetWeights, type ToolSearchIndexOptions } from "./tool-search-index.js";
import { createRelatedWordFileLookup } from "./wordnet-related-words.js";
import recorded from "../../bench/disclosure/fixtures/tool-search-catalogs.json" with { type: "json" };

/** The recorded tools/list of six real MCP servers (origin in the fixture), named as ctxkit names MCP tools. */
const realCatalog: ToolDefinition[] = recorded.servers.flatMap((server) =>
  server.tools.map((tool) => ({ name: `mcp__${server.server}__${tool.name}`, description: tool.description, parameters: tool.parameters as ToolDefinition["parameters"] })),
);
const realIndex = createToolSearchIndex(realCatalog);
/** Options that turn WordNet's related words off, for tests of another way of matching alone. */
const withoutWordNet = { relatedWordWeight: 0, broaderWordWeight: 0 };
const top = (query: string, count = 1, index = realIndex) => index.search(query, count).map((hit) => hit.name);

const definitions = [
  { name: "cancel_reservation", description: "Cancel the whole reservation.", parameters: { type: "object", properties: { reservation_id: { type: "string" } } } },
  { name: "getUserDetails", description: "Get the details of a user.", parameters: { type: "object", properties: { user_id: { type: "string" } } } },
  { name: "list_directory", description: "List the files in a folder.", parameters: { type: "object", properties: { path: { type: "string" } } } },
  {
    name: "book_flight",
    description: "Book a flight.",
    parameters: { type: "object", properties: { passengers: { type: "array", items: { type: "object", properties: { date_of_birth: { type: "string" } } } } } },
  },
];

describe("createToolSearchIndex", () => {
  it("finds a tool by words of its name, split at underscores and camelCase humps", () => {
    const index = createToolSearchIndex(definitions);
    expect(index.search("reservation", 5)[0]?.name).toBe("cancel_reservation");
    expect(index.search("user details", 5)[0]?.name).toBe("getUserDetails");
  });

  it("finds a tool by its description and by nested parameter names", () => {
    const index = createToolSearchIndex(definitions);
    expect(index.search("files folder", 5)[0]?.name).toBe("list_directory");
    expect(index.search("birth", 5)[0]?.name).toBe("book_flight");
  });

  it("matches word beginnings and small typos, returns at most limit hits, best first", () => {
    const index = createToolSearchIndex(definitions);
    expect(createToolSearchIndex(definitions, { prefix: true }).search("canc", 5)[0]?.name).toBe("cancel_reservation");
    expect(index.search("reservaton", 5)[0]?.name).toBe("cancel_reservation");
    const hits = index.search("cancel user flight files", 2);
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect(createToolSearchIndex(definitions, { fuzzy: 0, prefix: false, typoWeight: 0, synonymWeight: 0 }).search("canc", 5)).toEqual([]);
  });

  it("finds a capitalised word of a description whole (JavaScript is not java + script only)", () => {
    expect(realCatalog.length).toBeGreaterThanOrEqual(70);
    expect(top("javascript")).toEqual(["mcp__playwright__browser_evaluate"]);
  });

  it("finds a tool through a typo that swaps two letters", () => {
    expect(top("clikc submit")).toEqual(["mcp__playwright__browser_click"]);
    expect(top("serach github repositories")).toEqual(["mcp__github__search_repositories"]);
    expect(top("clikc submit", 1, createToolSearchIndex(realCatalog, { typoWeight: 0 }))).not.toEqual(["mcp__playwright__browser_click"]);
  });

  it("matches other forms of a word and action synonyms", () => {
    expect(top("page navigation")).toEqual(["mcp__playwright__browser_navigate"]);
    expect(top("visit a website")).toEqual(["mcp__playwright__browser_navigate"]);
    expect(top("go to example.com", 2)).toContain("mcp__playwright__browser_navigate");
    expect(top("hit escape")).toEqual(["mcp__playwright__browser_press_key"]);
    expect(top("make a folder")).toEqual(["mcp__filesystem__create_directory"]);
  });

  it("meets a verb and its nouns at one Porter stem (reserve / reservation, reviewers / review)", () => {
    const catalog = [
      { name: "book_reservation", description: "Book a reservation.", parameters: { type: "object", properties: {} } },
      { name: "list_seats", description: "List the seats of a flight.", parameters: { type: "object", properties: {} } },
      { name: "get_reviews", description: "Get the reviews on a pull request.", parameters: { type: "object", properties: {} } },
      { name: "get_comments", description: "Get the comments on a pull request.", parameters: { type: "object", properties: {} } },
    ];
    const index = createToolSearchIndex(catalog);
    expect(index.search("reserve a flight", 1).map((hit) => hit.name)).toEqual(["book_reservation"]);
    expect(index.search("what did the reviewers say on the pull request", 1).map((hit) => hit.name)).toEqual(["get_reviews"]);
    expect(createToolSearchIndex(catalog, { stemming: false, ...withoutWordNet }).search("reserve", 5)).toEqual([]);
  });

  it("reads a file name in the query as asking for a file tool, and a web address as asking for a URL", () => {
    const catalog = [
      { name: "read_text_file", description: "Read the complete contents of a file as text.", parameters: { type: "object", properties: { path: { type: "string" } } } },
      { name: "retrieve_page_markdown", description: "Retrieve the contents of a page as Markdown.", parameters: { type: "object", properties: { page_id: { type: "string" } } } },
      { name: "navigate", description: "Navigate to a URL.", parameters: { type: "object", properties: { url: { type: "string" } } } },
      { name: "open_nodes", description: "Open specific nodes by their names.", parameters: { type: "object", properties: { names: { type: "array" } } } },
    ];
    const first = (query: string, options = {}) => createToolSearchIndex(catalog, options).search(query, 1).map((hit) => hit.name);
    expect(first("print contents of report.txt")).toEqual(["read_text_file"]);
    expect(first("print contents of report.txt", { hintWeight: 0 })).toEqual(["retrieve_page_markdown"]);
    expect(first("try google.com")).toEqual(["navigate"]);
    expect(first("try google.com", { hintWeight: 0 })).toEqual([]);
  });

  it("widens a word the catalog lacks by its nearest catalog words when word vectors are given, and only such a word", () => {
    const catalog = [
      { name: "cancel_reservation", description: "Cancel the whole reservation.", parameters: { type: "object", properties: {} } },
      { name: "cancel_order", description: "Cancel a pending order.", parameters: { type: "object", properties: {} } },
    ];
    // Three-dimensional stand-ins for GloVe vectors: "booking" points where "reservation" does.
    const vectors: Record<string, number[]> = { booking: [1, 0.1, 0], reservation: [0.9, 0.2, 0], order: [0, 1, 0], cancel: [0, 0, 1], whole: [0.2, 0, 0.9], pending: [0, 0.7, 0.7] };
    const withVectors = createToolSearchIndex(catalog, { wordVectors: (word) => vectors[word], ...withoutWordNet });
    expect(createToolSearchIndex(catalog, withoutWordNet).search("booking", 5)).toEqual([]);
    expect(withVectors.search("booking", 5).map((hit) => hit.name)).toEqual(["cancel_reservation"]);
    // "order" is a catalog word: its neighbours are not added, so its scores are those without vectors.
    expect(withVectors.search("order", 5)).toEqual(createToolSearchIndex(catalog, withoutWordNet).search("order", 5));
    expect(createToolSearchIndex(catalog, { wordVectors: (word) => vectors[word], vectorWeight: 0, ...withoutWordNet }).search("booking", 5)).toEqual([]);
  });

  it("widens query words by WordNet's related words when asked to, below the word's own weight, and not by default", () => {
    const catalog = [
      { name: "cancel_subscription", description: "Cancel a subscription.", parameters: { type: "object", properties: {} } },
      { name: "buy_item", description: "Buy an item from the shop.", parameters: { type: "object", properties: {} } },
      { name: "purchase_history", description: "List past purchases.", parameters: { type: "object", properties: {} } },
    ];
    const names = (query: string, options: ToolSearchIndexOptions = wordNetWeights) => createToolSearchIndex(catalog, options).search(query, 3).map((hit) => hit.name);
    // "call off": two words WordNet knows as one ("call_off" → cancel), no hand-written table lists it.
    expect(names("call off my subscription")[0]).toBe("cancel_subscription");
    expect(names("call off")).toEqual(["cancel_subscription"]);
    expect(names("called off")).toEqual(["cancel_subscription"]);
    const removeItem = [{ name: "remove_item", description: "Remove an item.", parameters: { type: "object", properties: {} } }];
    expect(createToolSearchIndex(removeItem, wordNetWeights).search("get rid of it", 1)).toHaveLength(1);
    expect(createToolSearchIndex(removeItem, withoutWordNet).search("get rid of it", 1)).toEqual([]);
    expect(names("call off", withoutWordNet)).toEqual([]);
    // Off unless asked for: it gained on the tune half only (see relatedWordWeight).
    expect(createToolSearchIndex(removeItem).search("get rid of it", 1)).toEqual([]);
    expect(names("call off", {})).toEqual([]);
    // The word itself outweighs what WordNet relates to it: "purchase" finds purchase_history before buy_item.
    expect(names("purchase")).toEqual(["purchase_history", "buy_item"]);
    expect(names("purchase", withoutWordNet)).toEqual(["purchase_history"]);
  });

  it("searches a query's own words before their related words, however many those are", () => {
    const fillers = Array.from({ length: 300 }, (_, index) => `filler${index}`);
    const catalog = [
      { name: "zebra_tool", description: "Zebra.", parameters: { type: "object", properties: {} } },
      ...fillers.map((word) => ({ name: `${word}_tool`, description: word, parameters: { type: "object", properties: {} } })),
    ];
    const relatedWords = (word: string) => (word === "first" ? { close: fillers, broader: [] } : undefined);
    expect(createToolSearchIndex(catalog, { relatedWords, ...wordNetWeights }).search("first zebra", 1).map((hit) => hit.name)).toEqual(["zebra_tool"]);
  });

  it("takes related words from the lookup it is given", () => {
    const catalog = [{ name: "close_ticket", description: "Close a support ticket.", parameters: { type: "object", properties: {} } }];
    const relatedWords = (word: string) => (word === "shut" ? { close: ["close"], broader: [] } : undefined);
    expect(createToolSearchIndex(catalog, { relatedWords, ...wordNetWeights }).search("shut it", 1).map((hit) => hit.name)).toEqual(["close_ticket"]);
    expect(createToolSearchIndex(catalog, { relatedWords: () => undefined, ...wordNetWeights }).search("shut it", 1)).toEqual([]);
  });

  it("searches without related words, and says so once, when their table cannot be read", () => {
    const catalog = [{ name: "close_ticket", description: "Close a support ticket.", parameters: { type: "object", properties: {} } }];
    const warnings: string[] = [];
    const missing = createRelatedWordFileLookup(new URL("file:///nonexistent-ctxkit-dir/related-words.txt.br"));
    const index = createToolSearchIndex(catalog, { ...wordNetWeights, relatedWords: missing, onWarning: (warning) => warnings.push(`${warning.code}: ${warning.message}`) });
    expect(index.search("close the ticket", 1).map((hit) => hit.name)).toEqual(["close_ticket"]);
    expect(index.search("shut the ticket", 1).map((hit) => hit.name)).toEqual(["close_ticket"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^related_words_unavailable: .*nonexistent-ctxkit-dir.*relatedWordWeight/);
  });

  it("splits a word the catalog lacks into two words it has (datasource → data source)", () => {
    const catalog = [
      { name: "create_data_source", description: "Create a data source.", parameters: { type: "object", properties: {} } },
      { name: "create_page", description: "Create a page.", parameters: { type: "object", properties: {} } },
    ];
    expect(createToolSearchIndex(catalog).search("new datasource", 1).map((hit) => hit.name)).toEqual(["create_data_source"]);
    expect(createToolSearchIndex(catalog, { typoWeight: 0, ...withoutWordNet }).search("datasource", 1)).toEqual([]);
    const stemOf = new Map([["data", "data"], ["source", "sourc"], ["add", "add"], ["datas", "data"]]);
    expect(splitIntoKnownWords("datasource", stemOf)).toEqual(["data", "sourc"]);
    expect(splitIntoKnownWords("adding", stemOf)).toEqual([]);
  });

  it("does not let an address's scheme and domain match tools (https, com)", () => {
    const catalog = [
      { name: "navigate", description: "Navigate to a URL.", parameters: { type: "object", properties: { url: { type: "string" } } } },
      { name: "make_link", description: "Make a link such as https://acme.com to a page on the .com site.", parameters: { type: "object", properties: {} } },
    ];
    expect(createToolSearchIndex(catalog).search("load https://www.example.com", 1).map((hit) => hit.name)).toEqual(["navigate"]);
    expect(createToolSearchIndex(catalog).search("load https://www.example.com", 2).map((hit) => hit.name)).toEqual(["navigate"]);
  });

  it("ranks the tool whose name the query covers above tools that share only the verb", () => {
    expect(top("make a new repo")).toEqual(["mcp__github__create_repository"]);
  });

  it("finds a tool by a word only its parameter descriptions hold", () => {
    expect(top("squash")).toEqual(["mcp__github__merge_pull_request"]);
    expect(top("squash", 1, createToolSearchIndex(realCatalog, { boost: { parameterDescriptions: 0 }, ...withoutWordNet }))).toEqual([]);
  });

  it("bounds a huge query and answers it", () => {
    expect(realIndex.search("click ".repeat(100_000), 3).length).toBeGreaterThan(0);
  });

  it("returns nothing for a query of stop words or punctuation only", () => {
    expect(createToolSearchIndex(definitions).search("the of ... ?", 5)).toEqual([]);
  });

  it("lists parameter names of nested objects and array items", () => {
    expect(parameterNames(definitions[3]!.parameters)).toEqual(["passengers", "date_of_birth"]);
  });

  it("lists parameter descriptions and string enum values, nested ones included", () => {
    const schema = { type: "object", properties: { method: { type: "string", description: "How to merge", enum: ["merge", "squash"] }, files: { type: "array", items: { type: "object", properties: { path: { description: "Where" } } } } } };
    expect(parameterDescriptions(schema)).toEqual(["How to merge", "merge squash", "Where"]);
  });
});

describe("createToolCatalog", () => {
  const asTools = (list: typeof definitions): Tool[] => list.map((definition) => ({ ...definition, deferred: true, execute: async () => "ok" }));

  it("builds the index once and again only after the set of tools changed", () => {
    const catalog = createToolCatalog(asTools(definitions));
    expect(catalog.indexBuilds).toBe(0);
    catalog.search("reservation", 3);
    catalog.search("user", 3);
    expect(catalog.indexBuilds).toBe(1);
    catalog.replace(asTools(definitions.slice(0, 2)));
    expect(catalog.search("folder files", 3).map((hit) => hit.name)).not.toContain("list_directory");
    expect(catalog.indexBuilds).toBe(2);
    expect(catalog.tools.map((tool) => tool.name)).toEqual(["cancel_reservation", "getUserDetails"]);
  });
});
