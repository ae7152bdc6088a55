import { readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { loadSkills } from "../../skills/load-skills.js";
import { ConfigError } from "../../types/index.js";
import { catalogOfSize, loadDisclosureCatalogs, type DisclosureCatalogs } from "./disclosure-catalog.js";
import { runCacheSafety, type CacheSafetyResult } from "./run-cache-safety.js";
import { loadSearchQueries, runSearchQuality, type SearchQualityResult } from "./run-search-quality.js";
import { runTokenComparison, type TokenComparisonRow } from "./run-token-comparison.js";

export interface DisclosureBenchOptions {
  /** The `tau-bench` folder of the corpus. */
  tauDirectory: string;
  /** A folder of skill folders (default: the real skills playwright-core ships). */
  skillsDirectory?: string;
  /** Catalog sizes of the token comparison (default 10, 50, 200). */
  sizes?: readonly number[];
  /** Start the MCP servers (`live`, default) or use their recorded tools/list. */
  mcp?: "live" | "recorded";
  /** Called as the parts (cache safety, each catalog size, search) start and end: how many are done of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Most search queries per domain (default all), for a quick run. */
  queryLimit?: number;
}

export interface DisclosureBenchReport {
  skills: { directory: string; names: string[] };
  catalog: { realTools: number; sources: Record<string, number>; mcp: DisclosureCatalogs["mcp"] };
  cacheSafety: CacheSafetyResult;
  tokens: TokenComparisonRow[];
  search: SearchQualityResult;
}

const target = { name: "get_reservation_details", arguments: { reservation_id: "8JX2WO" } };

/** Runs the three parts of `ctxkit bench disclosure` offline (scripted model, real definitions) and returns the data. */
export async function runDisclosureBench(options: DisclosureBenchOptions): Promise<DisclosureBenchReport> {
  const skillsDirectory = options.skillsDirectory ?? playwrightSkillsDirectory();
  const skills = await loadSkills({ directories: [skillsDirectory], includeDefaultDirectories: false });
  if (skills.skills.length < 2) throw new ConfigError("option_invalid", `Found ${skills.skills.length} skill(s) in ${skillsDirectory}; the bench needs two or more. Give another skillsDirectory (CLI: --skills <dir>).`);
  const catalogs = await loadDisclosureCatalogs(options.tauDirectory, options.mcp ?? "live");
  const real = catalogs.entries.map((entry) => entry.definition);
  if (!real.some((definition) => definition.name === target.name)) throw new ConfigError("option_invalid", `The τ-bench airline tools have no ${target.name}; check tauDirectory (CLI: --corpus <dir>).`);

  const sizes = options.sizes ?? [10, 50, 200];
  const parts = { done: 0, total: 2 + sizes.length };
  const progress = (finished: number) => {
    parts.done += finished;
    options.onProgress?.(parts.done, parts.total);
  };
  progress(0);
  const first = [...skills.skills].sort((left, right) => (left.name < right.name ? -1 : 1))[0]!;
  const cacheSafety = await runCacheSafety({
    skills,
    catalog: catalogOfSize(catalogs.entries, Math.min(50, real.length), [target.name]).tools,
    skillFile: await firstReferencedFile(first.directory),
    target,
  });

  progress(1);
  const tokens: TokenComparisonRow[] = [];
  for (const size of sizes) {
    const { tools, copies } = catalogOfSize(catalogs.entries, size, [target.name]);
    tokens.push(await runTokenComparison({ skills, catalog: tools, copies, target }));
    progress(1);
  }

  const allQueries = await loadSearchQueries(options.tauDirectory);
  const queries = options.queryLimit === undefined ? allQueries : (["airline", "retail"] as const).flatMap((domain) => allQueries.filter((query) => query.domain === domain).slice(0, options.queryLimit));
  const search = runSearchQuality(real, queries);
  progress(1);

  const sources: Record<string, number> = {};
  for (const entry of catalogs.entries) sources[entry.source] = (sources[entry.source] ?? 0) + 1;
  return {
    skills: { directory: skillsDirectory, names: skills.skills.map((skill) => skill.name) },
    catalog: { realTools: real.length, sources, mcp: catalogs.mcp },
    cacheSafety,
    tokens,
    search,
  };
}

/** The real Agent Skills playwright-core ships (Apache-2.0), a development dependency of ctxkit. */
function playwrightSkillsDirectory(): string {
  try {
    return join(dirname(createRequire(import.meta.url).resolve("playwright-core/package.json")), "lib", "tools", "skills");
  } catch (error) {
    throw new ConfigError("option_invalid", "playwright-core is not installed, so its skills cannot be used; give skillsDirectory, a folder of skill folders (CLI: --skills <dir>).", { cause: error });
  }
}

/** A file of the skill other than SKILL.md (sorted, depth first), for the `skill_file` step. */
async function firstReferencedFile(directory: string): Promise<string> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name !== "SKILL.md")
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)))
    .sort();
  return files[0] ?? "SKILL.md";
}
