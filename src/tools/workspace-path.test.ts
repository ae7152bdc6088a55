import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectToolError, useTempWorkspace } from "./builtin/test-support/temp-workspace.js";
import { isInside, resolveWorkspacePath, toWorkspaceRelative } from "./workspace-path.js";

describe("resolveWorkspacePath", () => {
  const temp = useTempWorkspace();

  it("resolves relative paths against the workspace", async () => {
    await temp.write("src/a.ts", "a");
    expect(await resolveWorkspacePath(temp.workspace, "src/a.ts")).toBe(path.join(temp.workspace, "src/a.ts"));
    expect(await resolveWorkspacePath(temp.workspace, "src/../src/a.ts")).toBe(path.join(temp.workspace, "src/a.ts"));
    expect(await resolveWorkspacePath(temp.workspace, ".")).toBe(temp.workspace);
  });

  it("allows absolute paths inside the workspace", async () => {
    const absolute = await temp.write("notes.md", "x");
    expect(await resolveWorkspacePath(temp.workspace, absolute)).toBe(absolute);
  });

  it("refuses '..' escapes with a message that says what to do", async () => {
    const message = await expectToolError(resolveWorkspacePath(temp.workspace, "../etc/passwd"), "permission");
    expect(message).toBe(
      `Path '../etc/passwd' is outside the workspace ${temp.workspace}; use a path relative to the workspace.`,
    );
    await expectToolError(resolveWorkspacePath(temp.workspace, "src/../../outside/x"), "permission");
    await expectToolError(resolveWorkspacePath(temp.workspace, ".."), "permission");
  });

  it("refuses absolute paths outside the workspace", async () => {
    await expectToolError(resolveWorkspacePath(temp.workspace, "/etc/passwd"), "permission");
    await expectToolError(resolveWorkspacePath(temp.workspace, path.join(temp.outside, "x")), "permission");
  });

  it("does not mistake a sibling directory sharing the workspace's name prefix for the workspace", async () => {
    await expectToolError(resolveWorkspacePath(temp.workspace, `${temp.workspace}-other/file`), "permission");
  });

  it("refuses a symlinked file that points outside", async () => {
    await writeFile(path.join(temp.outside, "secret.txt"), "secret");
    await symlink(path.join(temp.outside, "secret.txt"), path.join(temp.workspace, "secret-link"));
    const message = await expectToolError(resolveWorkspacePath(temp.workspace, "secret-link"), "permission");
    expect(message).toContain("symbolic link");
    expect(message).toContain(temp.outside);
  });

  it("refuses paths through a symlinked directory that points outside", async () => {
    await writeFile(path.join(temp.outside, "secret.txt"), "secret");
    await symlink(temp.outside, path.join(temp.workspace, "linked-dir"));
    await expectToolError(resolveWorkspacePath(temp.workspace, "linked-dir/secret.txt"), "permission");
    await expectToolError(resolveWorkspacePath(temp.workspace, "linked-dir"), "permission");
  });

  it("refuses not-yet-existing files below a symlinked directory that points outside", async () => {
    await symlink(temp.outside, path.join(temp.workspace, "linked-dir"));
    await expectToolError(resolveWorkspacePath(temp.workspace, "linked-dir/new/deeper/file.txt"), "permission");
  });

  it("refuses a dangling symlink whose target would be created outside", async () => {
    await symlink(path.join(temp.outside, "not-yet.txt"), path.join(temp.workspace, "dangling"));
    await expectToolError(resolveWorkspacePath(temp.workspace, "dangling"), "permission");
  });

  it("resolves a dangling relative link from its real directory, not the path used to reach it", async () => {
    // a/b/c is the workspace root again; `link` (relative, dangling) really points at ../outside/new.txt.
    await mkdir(path.join(temp.workspace, "a/b"), { recursive: true });
    await symlink(temp.workspace, path.join(temp.workspace, "a/b/c"));
    await symlink(`../${path.basename(temp.outside)}/new.txt`, path.join(temp.workspace, "link"));
    await expectToolError(resolveWorkspacePath(temp.workspace, "link"), "permission");
    await expectToolError(resolveWorkspacePath(temp.workspace, "a/b/c/link"), "permission");
  });

  it("allows symlinks inside the workspace that point inside it", async () => {
    await temp.write("real/file.txt", "x");
    await symlink(path.join(temp.workspace, "real"), path.join(temp.workspace, "alias"));
    await symlink("real/file.txt", path.join(temp.workspace, "file-alias"));
    expect(await resolveWorkspacePath(temp.workspace, "alias/file.txt")).toBe(path.join(temp.workspace, "alias/file.txt"));
    expect(await resolveWorkspacePath(temp.workspace, "file-alias", { mustExist: true })).toBe(
      path.join(temp.workspace, "file-alias"),
    );
  });

  it("accepts a workspace that is itself reached through a symlink", async () => {
    const linkedWorkspace = path.join(temp.outside, "workspace-link");
    await symlink(temp.workspace, linkedWorkspace);
    await temp.write("a.txt", "a");
    expect(await resolveWorkspacePath(linkedWorkspace, "a.txt", { mustExist: true })).toBe(
      path.join(linkedWorkspace, "a.txt"),
    );
    expect(await resolveWorkspacePath(linkedWorkspace, path.join(temp.workspace, "a.txt"))).toBe(
      path.join(temp.workspace, "a.txt"),
    );
  });

  it("reports missing paths as not_found and suggests listing the nearest existing parent", async () => {
    await mkdir(path.join(temp.workspace, "src"));
    const message = await expectToolError(
      resolveWorkspacePath(temp.workspace, "src/missing/file.ts", { mustExist: true }),
      "not_found",
    );
    expect(message).toContain("'src/missing/file.ts' does not exist");
    expect(message).toContain("list_dir with path 'src'");
  });

  it("does not require existence unless asked", async () => {
    expect(await resolveWorkspacePath(temp.workspace, "new/file.ts")).toBe(path.join(temp.workspace, "new/file.ts"));
  });

  it("reports a missing workspace clearly", async () => {
    const message = await expectToolError(resolveWorkspacePath(path.join(temp.outside, "nope"), "a"), "not_found");
    expect(message).toContain("workspace directory");
  });
});

describe("toWorkspaceRelative and isInside", () => {
  it("shows workspace-relative paths with forward slashes", () => {
    expect(toWorkspaceRelative("/w", "/w/src/a.ts")).toBe("src/a.ts");
    expect(toWorkspaceRelative("/w", "/w")).toBe(".");
  });

  it("treats names that merely start with '..' as inside", () => {
    expect(isInside("/w", "/w/..hidden")).toBe(true);
    expect(isInside("/w", "/w/../x")).toBe(false);
    expect(isInside("/w", "/wx")).toBe(false);
  });
});
