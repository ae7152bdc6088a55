import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a build script in plain JavaScript (scripts/ is not part of the TypeScript project)
import { chunksToRemove, generationOf, keepRecentChunksMs } from "../scripts/prune-cli-bundle.mjs";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function bundleFolder(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), "ctxkit-prune-"));
  folders.push(folder);
  for (const [name, source] of Object.entries(files)) writeFileSync(join(folder, name), source);
  return folder;
}

describe("the generation a bundle's entries run on", () => {
  it("is every chunk they require, statically or when an import() is first used, through other chunks", () => {
    const folder = bundleFolder({
      "main.cjs": `const run = require("./run-AbCd1234.cjs");\nasync function demo() { return Promise.resolve().then(() => require("./demo-command-Xy_z-987.cjs")); }`,
      "termination-signals.cjs": `"use strict";`,
      "run-AbCd1234.cjs": `require("./rolldown-runtime-BsoYDhqb.cjs"); require("./import-module.cjs")("valibot"); require("node:fs");`,
      "demo-command-Xy_z-987.cjs": `require("./run-AbCd1234.cjs");`,
      "rolldown-runtime-BsoYDhqb.cjs": "",
      "import-module.cjs": "",
      "unreferenced-Qq11Ww22.cjs": "",
    });
    const generation = generationOf(folder, ["termination-signals.cjs", "main.cjs"]) as Set<string>;
    expect([...generation].sort()).toEqual(["demo-command-Xy_z-987.cjs", "import-module.cjs", "main.cjs", "rolldown-runtime-BsoYDhqb.cjs", "run-AbCd1234.cjs", "termination-signals.cjs"]);
  });

  it("is empty where there is no bundle yet, and skips a chunk that is missing", () => {
    expect((generationOf(join(tmpdir(), "ctxkit-no-such-bundle"), ["main.cjs"]) as Set<string>).size).toBe(0);
    const folder = bundleFolder({ "main.cjs": `require("./gone-AbCd1234.cjs");` });
    expect([...(generationOf(folder, ["main.cjs"]) as Set<string>)]).toEqual(["main.cjs"]);
  });
});

describe("the chunks a build removes", () => {
  const now = Date.parse("2026-12-02T12:00:00Z");
  const old = now - keepRecentChunksMs - 1;
  it("are the old chunks of neither this build nor the generation it replaced", () => {
    const files = [
      { name: "main.cjs", mtimeMs: old },
      { name: "termination-signals.cjs", mtimeMs: old },
      { name: "import-module.cjs", mtimeMs: old },
      { name: "help.json", mtimeMs: old },
      { name: "inputs.json", mtimeMs: old },
      { name: "run-NEW12345.cjs", mtimeMs: now },
      { name: "run-PREV1234.cjs", mtimeMs: old },
      { name: "run-OLD12345.cjs", mtimeMs: old },
      { name: "format-usage--1yONzNa.cjs", mtimeMs: old },
      { name: "notes.txt", mtimeMs: old },
    ];
    const keep = new Set(["main.cjs", "termination-signals.cjs", "import-module.cjs", "help.json", "inputs.json", "run-NEW12345.cjs", "run-PREV1234.cjs"]);
    expect(chunksToRemove({ files, keep, now })).toEqual(["run-OLD12345.cjs", "format-usage--1yONzNa.cjs"]);
  });

  it("leave a chunk written in the last minutes (a build beside this one), and files not named as chunks", () => {
    const files = [
      { name: "run-RECENT12.cjs", mtimeMs: now - keepRecentChunksMs + 1000 },
      { name: "run-OLD12345.cjs", mtimeMs: old },
      { name: "my-notes.cjs", mtimeMs: old },
      { name: "run-OLD12345.cjs.bak", mtimeMs: old },
    ];
    expect(chunksToRemove({ files, keep: new Set(), now })).toEqual(["run-OLD12345.cjs"]);
  });
});
