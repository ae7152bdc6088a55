import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The lowest layers of docs/architecture.md ("each layer imports only the layers above it"): a
// provider speaks a wire format and knows nothing of policies, the loop or sessions, so code that
// needs both (a policy built on a provider call) lives in the lower layer and imports the provider.
const source = resolve(import.meta.dirname, "../src");
const upperLayers = ["types", "tokens", "providers"];

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

describe("layer direction", () => {
  for (const [index, layer] of upperLayers.entries()) {
    it(`src/${layer} imports only itself and the layers above it`, () => {
      const allowed = new Set(upperLayers.slice(0, index + 1));
      const violations = sourceFiles(join(source, layer)).flatMap((file) =>
        importedLayers(file)
          .filter((target) => !allowed.has(target))
          .map((target) => `${relative(source, file)} imports src/${target}`),
      );
      expect(violations).toEqual([]);
    });
  }
});
