import { cp, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../../types/index.js";
import { isolationBenchSections, type IsolationBenchSection } from "./isolation-bench-sections.js";

export interface IsolationBenchOptions {
  /** The code folder to search (copied to a temporary `src/`; the original is never touched). */
  source: string;
  pricingModel?: string;
  limit?: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each section has its own result type
  sections?: readonly IsolationBenchSection<any>[];
  /** Called as sections start and end: how many are done of how many. */
  onProgress?: (done: number, total: number) => void;
}

export interface IsolationBenchResult {
  source: string;
  sections: Array<{ name: string; title: string; result: unknown }>;
}

/** Copies the code base to a scratch folder and runs every section over it, in order. */
export async function runIsolationBench(options: IsolationBenchOptions): Promise<IsolationBenchResult> {
  const isFolder = await stat(options.source).then((info) => info.isDirectory(), () => false);
  if (!isFolder) throw new ConfigError("option_invalid", `The code folder to search, ${options.source}, is not a directory; give one with source (CLI: --source <dir>).`);
  const workspace = await mkdtemp(join(tmpdir(), "ctxkit-isolation-"));
  try {
    await cp(options.source, join(workspace, "src"), { recursive: true });
    const sections: IsolationBenchResult["sections"] = [];
    const chosen = options.sections ?? isolationBenchSections;
    for (const section of chosen) {
      options.onProgress?.(sections.length, chosen.length);
      const context = { workspace, ...(options.pricingModel ? { pricingModel: options.pricingModel } : {}), ...(options.limit ? { limit: options.limit } : {}) };
      sections.push({ name: section.name, title: section.title, result: await section.run(context) });
    }
    options.onProgress?.(sections.length, chosen.length);
    return { source: options.source, sections };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

/** Every section's title and table. */
export function formatIsolationBench(result: IsolationBenchResult, sections: readonly IsolationBenchSection<unknown>[] = isolationBenchSections): string {
  return result.sections
    .map((entry) => {
      const section = sections.find((candidate) => candidate.name === entry.name);
      return `${entry.title}\n\n${section ? section.format(entry.result) : JSON.stringify(entry.result, null, 2)}\n`;
    })
    .join("\n");
}
