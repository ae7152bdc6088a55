import { symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGlobTool } from "./glob.js";
import { createTempWorkspace, expectToolError, runTool, type TempWorkspace } from "./test-support/temp-workspace.js";

describe("glob", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await createTempWorkspace();
    for (const file of ["src/b.ts", "src/a.ts", "src/deep/c.tsx", "src/deep/d.js", "README.md", "top.ts"]) {
      await temp.write(file, "");
    }
    for (const file of ["node_modules/pkg/index.ts", ".git/hooks/x.ts", ".ctxkit/session.ts"]) await temp.write(file, "");
  });
  afterEach(async () => {
    await temp.remove();
  });

  it("matches at any depth with ** and returns sorted workspace-relative paths", async () => {
    const result = await runTool(createGlobTool({ workspace: temp.workspace }), { pattern: "**/*.ts" });
    expect(result.content).toBe("src/a.ts\nsrc/b.ts\ntop.ts");
  });

  it("searches below path and still shows workspace-relative paths", async () => {
    const tool = createGlobTool({ workspace: temp.workspace });
    expect((await runTool(tool, { pattern: "**/*.{ts,tsx}", path: "src" })).content).toBe(
      "src/a.ts\nsrc/b.ts\nsrc/deep/c.tsx",
    );
    expect((await runTool(tool, { pattern: "*", path: "src" })).content).toBe("src/a.ts\nsrc/b.ts\nsrc/deep/");
    expect((await runTool(tool, { pattern: "./src/?.ts" })).content).toBe("src/a.ts\nsrc/b.ts");
  });

  it("skips node_modules, .git and .ctxkit", async () => {
    const result = await runTool(createGlobTool({ workspace: temp.workspace }), { pattern: "**/*" });
    expect(result.content).not.toMatch(/node_modules|\.git\/|\.ctxkit/);
  });

  it("caps results with a note", async () => {
    const result = await runTool(createGlobTool({ workspace: temp.workspace, maxResults: 2 }), { pattern: "**/*.*" });
    expect(result.content).toBe(
      "README.md\nsrc/a.ts\n\nShowing the first 2 of 6 matches; use a narrower pattern or path.",
    );
  });

  it("suggests ** when a name-only pattern finds nothing", async () => {
    const result = await runTool(createGlobTool({ workspace: temp.workspace }), { pattern: "*.tsx" });
    expect(result.content).toBe(
      "No paths match '*.tsx' in '.'. A pattern without '/' only matches names directly in '.'; try '**/*.tsx' to search every subdirectory.",
    );
  });

  it("lists symlinks without following them", async () => {
    await symlink(temp.outside, path.join(temp.workspace, "out-link"));
    await temp.write("../outside/secret.ts", "");
    const result = await runTool(createGlobTool({ workspace: temp.workspace }), { pattern: "**/*" });
    expect(result.content).toContain("out-link");
    expect(result.content).not.toContain("secret.ts");
  });

  it("refuses patterns and paths that leave the workspace", async () => {
    const tool = createGlobTool({ workspace: temp.workspace });
    await expectToolError(runTool(tool, { pattern: "../*" }), "invalid_arguments");
    await expectToolError(runTool(tool, { pattern: "/etc/*" }), "invalid_arguments");
    await expectToolError(runTool(tool, { pattern: "*", path: ".." }), "permission");
    await expectToolError(runTool(tool, { pattern: "*.{a,b" }), "invalid_arguments");
  });
});
