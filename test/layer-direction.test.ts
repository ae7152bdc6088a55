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
  const start = text.indexOf("## Layers");
  const section = text.slice(start, text.indexOf("\n## ", start + 1));
  return [...section.matchAll(/^\|[^|]*\|\s*`src\/([a-z-]+)\/`/gm)].map((match) => match[1]!);
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
 * The top-level folder under src/ that each relative import of `file` reaches. A provider's subpath
 * entry (`src/providers/<name>/index.ts`) is a curated public entry like `src/policies.ts`: its
 * re-exports (`export … from`) are not imports of the provider's code, so they are left out.
 */
function importedLayers(file: string): string[] {
  const entry = /^providers[\\/][^\\/]+[\\/]index\.ts$/.test(relative(source, file));
  const text = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => !(entry && /^export\s.*\sfrom\s/.test(line)))
    .join("\n");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1]!);
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
