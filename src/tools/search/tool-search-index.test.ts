import { describe, expect, it } from "vitest";
import type { Tool } from "../../types/index.js";
import { createToolCatalog } from "./tool-catalog.js";
import { createToolSearchIndex, parameterNames } from "./tool-search-index.js";

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
    expect(createToolSearchIndex(definitions, { prefix: true }).search("reserv", 5)[0]?.name).toBe("cancel_reservation");
    expect(index.search("reservaton", 5)[0]?.name).toBe("cancel_reservation");
    const hits = index.search("cancel user flight files", 2);
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect(createToolSearchIndex(definitions, { fuzzy: 0, prefix: false }).search("reserv", 5)).toEqual([]);
  });

  it("returns nothing for a query of stop words or punctuation only", () => {
    expect(createToolSearchIndex(definitions).search("the of ... ?", 5)).toEqual([]);
  });

  it("lists parameter names of nested objects and array items", () => {
    expect(parameterNames(definitions[3]!.parameters)).toEqual(["passengers", "date_of_birth"]);
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
