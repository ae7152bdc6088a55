import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// An installed package prints `ctxkit run --help` from dist/cli-bundle/help.json too
// (bin/known-help.js), although npm gives every file the time it unpacked it (pacote's noMtime):
// the package is packed as `npm pack` does and unpacked with npm's own pacote, and the binary
// run with a hook that lists the CommonJS modules loaded when it exits.
const npmRoot = spawnSync("npm", ["root", "-g"], { encoding: "utf8" }).stdout?.trim() ?? "";
const pacotePath = join(npmRoot, "npm/node_modules/pacote");
const pacoteAvailable = npmRoot !== "" && existsSync(pacotePath);

describe.skipIf(!pacoteAvailable)("help texts of an installed package (needs npm; skipped without it)", () => {
  it("`ctxkit run --help` loads no module of the bundle; a help request help.json lacks does", async (context) => {
    if (!existsSync("dist/cli-bundle/help.json")) context.skip("dist/ is not built (npm run build, or run the e2e suite, which builds it)");
    const directory = mkdtempSync(join(tmpdir(), "ctxkit-installed-help-"));
    const pack = spawnSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", directory], { encoding: "utf8", timeout: 300_000 });
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = join(directory, readdirSync(directory).find((name) => name.endsWith(".tgz")) ?? "");
    const installed = join(directory, "node_modules/ctxkit");
    const pacote = createRequire(import.meta.url)(pacotePath) as { extract: (spec: string, dest: string) => Promise<unknown> };
    await pacote.extract(`file:${tarball}`, installed);

    const loadedFile = join(directory, "loaded.json");
    const hook = join(directory, "list-loaded.cjs");
    writeFileSync(hook, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(loadedFile)}, JSON.stringify(Object.keys(require.cache))));\n`);
    const loadedBy = (args: string[]) => {
      const run = spawnSync(process.execPath, ["--require", hook, join(installed, "bin/ctxkit.js"), ...args], { cwd: directory, encoding: "utf8", timeout: 60_000, env: { PATH: process.env.PATH ?? "", HOME: directory, NO_COLOR: "1" } });
      const bundleModules = (JSON.parse(readFileSync(loadedFile, "utf8")) as string[]).filter((file) => file.includes("/dist/cli-bundle/"));
      return { ...run, bundleModules };
    };

    const help = loadedBy(["run", "--help"]);
    expect(help.stderr).toBe("");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: ctxkit run");
    expect(help.bundleModules).toEqual([]);
    // The hook does see the bundle when it is loaded.
    const unknown = loadedBy(["run", "--model", "m", "--help"]);
    expect(unknown.stdout).toBe(help.stdout);
    expect(unknown.bundleModules).toContain(join(installed, "dist/cli-bundle/main.cjs"));
  }, 600_000);
});
