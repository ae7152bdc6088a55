import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CtxkitError, type ToolDefinition } from "../../types/index.js";
import { airlineTools } from "./airline/airline-tools.js";
import { parsePythonJson } from "./python/parse-python-json.js";
import { CopyOnReadTable, type TableOrigin } from "./python/copy-on-read-table.js";
import type { PyDict } from "./python/py-value.js";
import { retailTools } from "./retail/retail-tools.js";
import type { TauToolImplementation } from "./tau-tool-implementation.js";

export type TauDomainName = "airline" | "retail";

export const tauDomainNames: readonly TauDomainName[] = ["airline", "retail"];

/** The data files of each domain, in the order the reference's `load_data` puts them in the dict. */
const dataFiles: Record<TauDomainName, readonly string[]> = {
  airline: ["flights", "reservations", "users"],
  retail: ["orders", "products", "users"],
};

/**
 * One τ-bench domain loaded from its folder (`flights.json`…, `tools.json`, `wiki.md`): the tool
 * implementations, the schemas the model is shown, the policy, and fresh copies of the data.
 */
export interface TauDomain {
  name: TauDomainName;
  /** The policy, sent verbatim as the system prompt by the reference agent. */
  wiki: string;
  /** The tool schemas as the benchmark sends them, by tool name. */
  definitions: ReadonlyMap<string, ToolDefinition>;
  tools: ReadonlyMap<string, TauToolImplementation>;
  /** A deep copy of the data as loaded, for one task. */
  freshData(): PyDict;
}

const implementations: Record<TauDomainName, readonly TauToolImplementation[]> = { airline: airlineTools, retail: retailTools };

/** Reads a domain folder (e.g. `../shared/corpus/tau-bench/airline`). The data is parsed once; each task gets a copy. */
export interface LoadTauDomainOptions {
  /** Rewrites a table once after loading (e.g. to reproduce an older version of the data). */
  transformRecords?: (file: string, records: PyDict) => PyDict;
}

export async function loadTauDomain(name: TauDomainName, directory: string, options: LoadTauDomainOptions = {}): Promise<TauDomain> {
  const read = async (file: string) => {
    try {
      return await readFile(join(directory, file), "utf8");
    } catch (error) {
      throw new CtxkitError("option_invalid", `Cannot read τ-bench ${name} file '${join(directory, file)}': ${(error as Error).message}. Point to a folder holding the domain's data files, tools.json and wiki.md.`, { cause: error });
    }
  };
  const tables = new Map<string, PyDict>();
  for (const file of dataFiles[name]) {
    const records = parsePythonJson(await read(`${file}.json`));
    if (!(records instanceof Map)) throw new CtxkitError("option_invalid", `τ-bench ${name} file '${file}.json' must hold a JSON object keyed by id.`);
    tables.set(file, options.transformRecords?.(file, records) ?? records);
  }
  const wiki = await read("wiki.md");
  const definitions = parseToolSchemas(await read("tools.json"), join(directory, "tools.json"));
  return createTauDomain({ name, tables, wiki, definitions: [...definitions.values()] });
}

/** A domain from values in memory (tests, or data that does not come from files). */
export function createTauDomain(input: { name: TauDomainName; tables: ReadonlyMap<string, PyDict>; wiki: string; definitions: readonly ToolDefinition[] }): TauDomain {
  const origins = new Map<string, TableOrigin>([...input.tables].map(([file, records]) => [file, { records, reprCache: new Map() }]));
  return {
    name: input.name,
    wiki: input.wiki,
    definitions: new Map(input.definitions.map((definition) => [definition.name, definition])),
    tools: new Map(implementations[input.name].map((tool) => [tool.name, tool])),
    freshData: () => new Map([...origins].map(([file, origin]) => [file, new CopyOnReadTable(origin)])),
  };
}

function parseToolSchemas(text: string, file: string): Map<string, ToolDefinition> {
  const value = JSON.parse(text) as unknown;
  const definitions = new Map<string, ToolDefinition>();
  if (!Array.isArray(value)) throw new CtxkitError("option_invalid", `${file} must be a list of OpenAI tool schemas ({type: "function", function: {...}}).`);
  for (const entry of value as Array<{ function?: { name?: unknown; description?: unknown; parameters?: unknown } }>) {
    const schema = entry.function;
    if (typeof schema?.name !== "string" || typeof schema.parameters !== "object" || schema.parameters === null) {
      throw new CtxkitError("option_invalid", `${file} has an entry without function.name and function.parameters.`);
    }
    definitions.set(schema.name, {
      name: schema.name,
      description: typeof schema.description === "string" ? schema.description : "",
      parameters: schema.parameters as ToolDefinition["parameters"],
    });
  }
  return definitions;
}
