import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// bin/known-help.js: the help texts bin/ctxkit.js prints from dist/cli-bundle/help.json. A file it
// cannot trust is never an error of the binary: the CLI answers instead (undefined here).
const { knownHelp } = createRequire(import.meta.url)("../bin/known-help.js") as {
  knownHelp: (root: string, argv: string[], inClone: boolean) => { stdout: string; stderr: string; code: number } | undefined;
};

const answer = { stdout: "Usage: ctxkit run\n", stderr: "", code: 0 };

/** A package root whose dist/cli-bundle holds main.cjs and this help.json (text as is), both made at `madeAt`. */
function packageWith(helpText: string, madeAt = new Date("2026-01-01T00:00:00Z")): string {
  const root = `${mkdtempSync(join(tmpdir(), "ctxkit-known-help-"))}/`;
  mkdirSync(`${root}dist/cli-bundle`, { recursive: true });
  // The one compiled file the texts came from, made before the bundle.
  writeFileSync(`${root}dist/cli.js`, "");
  utimesSync(`${root}dist/cli.js`, new Date("2025-01-01T00:00:00Z"), new Date("2025-01-01T00:00:00Z"));
  writeFileSync(`${root}dist/cli-bundle/main.cjs`, "");
  writeFileSync(`${root}dist/cli-bundle/help.json`, helpText);
  for (const file of ["main.cjs", "help.json"]) utimesSync(`${root}dist/cli-bundle/${file}`, madeAt, madeAt);
  return root;
}

/** help.json as the bundling writes it: each command line's index into the distinct answers. */
function helpJson(answerOf: Record<string, unknown>, inputs: unknown = ["dist/cli.js"]): string {
  const answers = Object.values(answerOf);
  return JSON.stringify({ inputs, commandLines: Object.fromEntries(Object.keys(answerOf).map((key, index) => [key, index])), answers });
}

describe("knownHelp (bin/known-help.js)", () => {
  it("answers a command line help.json holds, in a clone when the bundle and its inputs are as it was made", () => {
    const root = packageWith(helpJson({ '["run","--help"]': answer }), new Date(Date.now() + 60_000));
    expect(knownHelp(root, ["run", "--help"], true)).toEqual(answer);
    expect(knownHelp(root, ["run", "--model", "m", "--help"], true)).toBeUndefined();
    expect(knownHelp(root, ["chat", "--help"], true)).toBeUndefined();
  });

  it("in an installed package, whatever times npm gave the files (it gives each its unpack time)", () => {
    const root = packageWith(helpJson({ '["run","--help"]': answer }));
    utimesSync(`${root}dist/cli-bundle/help.json`, new Date(), new Date());
    expect(knownHelp(root, ["run", "--help"], false)).toEqual(answer);
    // In a clone that says help.json came from another bundling than main.cjs.
    expect(knownHelp(root, ["run", "--help"], true)).toBeUndefined();
  });

  it("in a clone, not when a file the texts came from is newer than the bundle", () => {
    const root = packageWith(helpJson({ '["run","--help"]': answer }));
    expect(knownHelp(root, ["run", "--help"], true)).toEqual(answer);
    utimesSync(`${root}dist/cli.js`, new Date(), new Date());
    expect(knownHelp(root, ["run", "--help"], true)).toBeUndefined();
  });

  it("not from an answer of the wrong shape, nor from a file that is not help.json's", () => {
    const wrong = [null, "text", { stdout: "x", stderr: "" }, { stdout: "x", stderr: "", code: "0" }, { stdout: "x", stderr: "", code: 1.5 }, { stdout: 1, stderr: "", code: 0 }];
    for (const value of wrong) expect(knownHelp(packageWith(helpJson({ '["--help"]': value })), ["--help"], false), JSON.stringify(value)).toBeUndefined();
    const lines = '"commandLines":{"[\\"--help\\"]":0}';
    for (const text of ["", "{", "null", "[]", '{"answers":null}', `{${lines},"answers":null}`, `{${lines},"answers":{"0":${JSON.stringify(answer)}}}`, `{"commandLines":{"[\\"--help\\"]":"0"},"answers":[${JSON.stringify(answer)}]}`, `{"commandLines":{"[\\"--help\\"]":1},"answers":[${JSON.stringify(answer)}]}`, helpJson({ '["--help"]': answer }, null)]) {
      expect(knownHelp(packageWith(text, new Date(Date.now() + 60_000)), ["--help"], true), text).toBeUndefined();
    }
  });

  it("not from a help.json over 1 MB", () => {
    const padded = JSON.stringify({ ...(JSON.parse(helpJson({ '["--help"]': answer })) as object), padding: "x".repeat(1024 * 1024) });
    expect(knownHelp(packageWith(padded), ["--help"], false)).toBeUndefined();
    expect(knownHelp(packageWith(helpJson({ '["--help"]': answer })), ["--help"], false)).toEqual(answer);
  });

  it("not when help.json cannot be read: missing, or its folder a file (ENOTDIR)", () => {
    const root = `${mkdtempSync(join(tmpdir(), "ctxkit-known-help-"))}/`;
    expect(knownHelp(root, ["--help"], false)).toBeUndefined();
    mkdirSync(`${root}dist`);
    writeFileSync(`${root}dist/cli-bundle`, "not a folder");
    expect(knownHelp(root, ["--help"], false)).toBeUndefined();
    expect(knownHelp(root, ["--help"], true)).toBeUndefined();
  });
});
