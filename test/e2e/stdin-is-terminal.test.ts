import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(join(tmpdir(), "ctxkit-stdin-terminal-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Prints what stdinIsTerminal says, whether it loaded node:tty, then what process.stdin.isTTY says once opened.
const script = `import(${JSON.stringify(pathToFileURL(resolve("dist/cli/stdin-is-terminal.js")).href)}).then(({ stdinIsTerminal }) => {
  const answer = stdinIsTerminal();
  const loadedTty = process.moduleLoadList.includes("NativeModule tty");
  console.log(JSON.stringify({ answer, loadedTty, isTTY: process.stdin.isTTY === true }));
  process.stdin.destroy();
});`;
const scriptFile = join(folder, "ask.cjs");
writeFileSync(scriptFile, script);
const askWith = (stdin: "ignore" | "pipe" | number) => JSON.parse(spawnSync(process.execPath, [scriptFile], { stdio: [stdin, "pipe", "inherit"], input: stdin === "pipe" ? "" : undefined, encoding: "utf8" }).stdout) as { answer: boolean; loadedTty: boolean; isTTY: boolean };

describe("stdinIsTerminal", () => {
  it("says no for /dev/null, a pipe and a file without loading node:tty, as process.stdin.isTTY does", () => {
    const file = join(folder, "input.txt");
    writeFileSync(file, "y\n");
    const descriptor = openSync(file, "r");
    try {
      for (const stdin of ["ignore", "pipe", descriptor] as const) expect(askWith(stdin)).toEqual({ answer: false, loadedTty: false, isTTY: false });
    } finally {
      closeSync(descriptor);
    }
  });

  it("says yes for a terminal, as process.stdin.isTTY does", () => {
    const output = execFileSync("script", ["-q", "-e", "-c", `'${process.execPath}' '${scriptFile}'`, "/dev/null"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    expect(JSON.parse(output.slice(output.indexOf("{"), output.lastIndexOf("}") + 1))).toMatchObject({ answer: true, isTTY: true });
  });
});
