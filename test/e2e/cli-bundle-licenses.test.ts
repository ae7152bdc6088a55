import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The CLI's bundle (dist/cli-bundle, built by the global setup) copies a few packages' code into its
// chunks (scripts/bundle-cli.mjs, bundledPackages), where each other package is required from
// node_modules with its own license beside it. A copied package's license (valibot's: MIT, which
// asks that the notice go with every copy) must then go with the chunk that holds its code.
const bundleDir = resolve("dist/cli-bundle");

/** The packages bundled in: the folders under node_modules that the bundle lists as its inputs. */
function bundledPackageDirs(): string[] {
  const inputs = JSON.parse(readFileSync(join(bundleDir, "inputs.json"), "utf8")) as string[];
  const dirs = inputs.map((file) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1]).filter((dir) => dir !== undefined);
  return [...new Set(dirs)];
}

/** The bundle's chunks as main.cjs requires them, and theirs (an earlier build's stay beside them for a day). */
function currentChunks(): Map<string, string> {
  const chunks = new Map<string, string>();
  for (const pending = ["main.cjs", "termination-signals.cjs"]; pending.length > 0; ) {
    const name = pending.pop()!;
    if (chunks.has(name)) continue;
    const code = readFileSync(join(bundleDir, name), "utf8");
    chunks.set(name, code);
    for (const [, required] of code.matchAll(/\brequire\("\.\/([^"]+\.cjs)"\)/g)) pending.push(required!);
  }
  return chunks;
}

describe("the CLI's bundle", () => {
  it("carries the license of each package it copies code from, at the top of the chunk holding it", () => {
    const dirs = bundledPackageDirs();
    // valibot, the config schema's validator, is bundled into the run's chunk.
    expect(dirs.some((dir) => dir.endsWith("node_modules/valibot"))).toBe(true);
    const chunks = [...currentChunks().values()];
    expect(chunks.length).toBeGreaterThan(10);
    for (const dir of dirs) {
      const licenseFile = readdirSync(resolve(dir)).find((name) => /^(?:licen[cs]e|copying)(?:\.|$)/i.test(name));
      expect(licenseFile, `${dir} has a license file`).toBeDefined();
      const license = readFileSync(resolve(dir, licenseFile!), "utf8").trim();
      const holding = chunks.filter((code) => code.startsWith("/*!") && code.slice(0, code.indexOf("*/")).includes(license));
      expect(holding.length, `a chunk begins with ${dir}'s license`).toBeGreaterThan(0);
    }
  });
});
