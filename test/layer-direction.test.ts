import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// docs/architecture.md's "Layers" table, checked: each folder imports only itself and the folders above
// it. A provider speaks a wire format and knows nothing of policies, the loop or sessions, so code that
// needs both (a policy built on a provider call) lives in the lower layer and imports the provider.
// The table had said so of every layer while only the first three were checked, and src/tools imported
// src/session (the private file modes), src/session imported src/loop, and six folders were not in it.
const source = resolve(import.meta.dirname, "../src");

/** The folders of a page's Layers table, top first: the first `src/<folder>/` of each row. */
function documentedLayers(page: string): string[] {
  const text = readFileSync(resolve(import.meta.dirname, "..", page), "utf8");
  const start = text.search(/^## Layers\b/m);
  // A renamed heading or a reshaped table would otherwise leave no layer to check, and no test to fail.
  if (start === -1) throw new Error(`${page} has no "## Layers" section`);
  const next = text.indexOf("\n## ", start + 1);
  const section = text.slice(start, next === -1 ? undefined : next);
  const layers = [...section.matchAll(/^\|[^|\n]*\|\s*`src\/([\w.-]+)\/`/gm)].map((match) => match[1]!);
  if (layers.length === 0) throw new Error(`${page}'s Layers section has no table rows of the form | layer | \`src/<folder>/\` | … |`);
  return layers;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "test-support" || entry.name === "fixtures" ? [] : sourceFiles(path);
    const testOnly = entry.name.endsWith(".test.ts") || entry.name === "test-support.ts";
    return entry.name.endsWith(".ts") && !testOnly ? [path] : [];
  });
}

/**
 * The top-level folder under src/ that each relative import of `file` (whose text is `text`) reaches:
 * `import`, `import type`, `export … from`, a side-effect import and `import()`, in either quote. A
 * provider's subpath entry (`src/providers/<name>/index.ts`) is a curated public entry like
 * `src/policies.ts`: its re-exports (`export … from`) are not imports of the provider's code, so they
 * are left out.
 */
function importedLayers(file: string, text = readFileSync(file, "utf8")): string[] {
  const entry = /^providers[\\/][^\\/]+[\\/]index\.ts$/.test(relative(source, file));
  const code = text
    .split("\n")
    .filter((line) => !(entry && /^export\s.*\sfrom\s/.test(line)))
    .join("\n");
  const specifiers = [...code.matchAll(/(?:from|import)\s*\(?\s*(["'])(\.{1,2}\/[^"']+)\1/g)].map((match) => match[2]!);
  return specifiers.map((specifier) => relative(source, resolve(dirname(file), specifier)).split(/[\\/]/)[0]!);
}

const layers = documentedLayers("docs/architecture.md");

describe("layer direction (docs/architecture.md, Layers)", () => {
  it("lists every folder under src/ once", () => {
    const folders = readdirSync(source, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect([...layers].sort()).toEqual(folders.sort());
  });

  it("is the order CONTRIBUTING.md's table gives", () => {
    expect(documentedLayers("CONTRIBUTING.md")).toEqual(layers);
  });

  // The check itself: an import upward in each form is seen (a pattern that missed one would pass every layer).
  it("sees every form of import of a higher layer", () => {
    const file = join(source, "types", "example.ts");
    const text = [
      'import { main } from "../cli/main.js";',
      'import type { Tool } from "../tools/tool.js";',
      "import {\n  createAgent,\n} from '../loop/create-agent.js';",
      'export { runReplay } from "../bench/replay/run-replay.js";',
      'import "../web/register.js";',
      'const lazy = await import("../config/resolve-agent-config.js");',
      'import { Usage } from "./usage.js";',
    ].join("\n");
    expect(importedLayers(file, text)).toEqual(["cli", "tools", "loop", "bench", "web", "config", "types"]);
  });

  for (const [index, layer] of layers.entries()) {
    it(`src/${layer} imports only itself and the layers above it`, () => {
      const allowed = new Set(layers.slice(0, index + 1));
      const violations = sourceFiles(join(source, layer)).flatMap((file) =>
        importedLayers(file)
          .filter((target) => !allowed.has(target))
          .map((target) => `${relative(source, file)} imports src/${target}`),
      );
      expect(violations).toEqual([]);
    });
  }
});
