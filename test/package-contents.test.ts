import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

describe("the published package", () => {
  it("holds the built library and the binary, no sources, tests or source maps, and runs no script on install", async () => {
    // --ignore-scripts: list what dist/ holds now (the suite built it) without prepack rebuilding it under other tests.
    const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { encoding: "utf8" });
    const [pack] = JSON.parse(output) as Array<{ files: Array<{ path: string }> }>;
    const files = pack!.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(["bin/ctxkit.js", "bin/known-help.js", "dist/cli-bundle/main.cjs", "dist/cli-bundle/help.json", "dist/index.js", "dist/index.d.ts", "dist/cli/main.js", "dist/testing.js", "README.md", "LICENSE"]));
    expect(files.filter((file) => file.endsWith(".map"))).toEqual([]);
    expect(files.filter((file) => /^(src|test|examples)\//.test(file) || /\.test\.(js|d\.ts)$/.test(file))).toEqual([]);
    // Every subpath export points at a file in the package.
    const manifest = JSON.parse(await readFile("package.json", "utf8")) as { scripts: Record<string, string>; exports: Record<string, { types: string; default: string }> };
    for (const target of Object.values(manifest.exports)) {
      expect(files).toContain(target.default.replace(/^\.\//, ""));
      expect(files).toContain(target.types.replace(/^\.\//, ""));
    }
    for (const hook of ["preinstall", "install", "postinstall", "prepare"]) expect(manifest.scripts[hook]).toBeUndefined();
    expect(manifest.scripts.prepack).toContain("tsc -p tsconfig.build.json");
  });
});
