import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

// A program is written from the README and docs/: every `import { … } from "ctxkit…"` in their
// TypeScript examples must name a value its entry really exports (docs/architecture.md once named
// `unlockSessionFile`, which only the CLI could reach). Types are checked by compiling the examples.
const documents = ["README.md", "docs/architecture.md", "docs/configuration.md", "docs/replay.md"];
const manifest = JSON.parse(await readFile("package.json", "utf8")) as { exports: Record<string, { default: string }> };

/** The TypeScript source of an entry: `./dist/tools.js` → `../src/tools.ts`. */
function sourceOf(specifier: string): string | undefined {
  const entry = manifest.exports[`.${specifier.slice("ctxkit".length)}`];
  return entry && `../${entry.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")}`;
}

async function documentedImports(): Promise<Array<{ document: string; specifier: string; names: string[] }>> {
  const found: Array<{ document: string; specifier: string; names: string[] }> = [];
  for (const document of documents) {
    const text = await readFile(document, "utf8");
    for (const block of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
      for (const statement of block[1]!.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(ctxkit(?:\/[^"]*)?)"/g)) {
        const names = statement[1]!.split(",").map((name) => name.trim()).filter((name) => name !== "" && !name.startsWith("type "));
        found.push({ document, specifier: statement[2]!, names: names.map((name) => name.split(/\s+as\s+/)[0]!) });
      }
    }
  }
  return found;
}

describe("the docs' examples import what the entries export", () => {
  it("names only values their entry exports", async () => {
    const imports = await documentedImports();
    expect(imports.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const { document, specifier, names } of imports) {
      const source = sourceOf(specifier);
      if (source === undefined) {
        missing.push(`${document}: no entry ${specifier}`);
        continue;
      }
      const entry = (await import(source)) as Record<string, unknown>;
      for (const name of names) if (!(name in entry)) missing.push(`${document}: ${name} from ${specifier}`);
    }
    expect(missing).toEqual([]);
  }, 120_000);

  it("exports the session-lock breaker docs/architecture.md names, from ctxkit", async () => {
    const architecture = await readFile("docs/architecture.md", "utf8");
    expect(architecture).toContain("`unlockSessionFile` (exported from `ctxkit`");
    expect(typeof ((await import("../src/index.js")) as Record<string, unknown>).unlockSessionFile).toBe("function");
  });
});
