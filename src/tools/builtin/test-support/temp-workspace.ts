import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { ToolError, type Tool } from "../../tool.js";

/** A real temporary directory holding `workspace/` and a sibling `outside/` for escape tests. */
export interface TempWorkspace {
  workspace: string;
  outside: string;
  /** Writes a file below the workspace, creating parent directories. */
  write(relative: string, content: string | Uint8Array): Promise<string>;
  remove(): Promise<void>;
}

export async function createTempWorkspace(): Promise<TempWorkspace> {
  // realpath: on macOS the temp dir is itself behind a symlink (/var -> /private/var).
  const root = await realpath(await mkdtemp(path.join(tmpdir(), "ctxkit-tools-")));
  const workspace = path.join(root, "workspace");
  const outside = path.join(root, "outside");
  await mkdir(workspace);
  await mkdir(outside);
  return {
    workspace,
    outside,
    async write(relative, content) {
      const absolute = path.join(workspace, relative);
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, content);
      return absolute;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * A fresh temporary workspace for each test of the enclosing `describe` (made before each test and
 * removed after it), instead of the same `let temp` and two hooks written in every tool test file.
 */
export function useTempWorkspace(): TempWorkspace {
  const temp = {} as TempWorkspace;
  beforeEach(async () => {
    Object.assign(temp, await createTempWorkspace());
  });
  afterEach(() => temp.remove());
  return temp;
}

/** Runs a tool the way the loop does and normalises its output. */
export async function runTool<Args>(tool: Tool<Args>, args: Args, signal?: AbortSignal): Promise<{ content: string; isError: boolean }> {
  const output = await tool.execute(args, { signal: signal ?? new AbortController().signal, toolCallId: "call-1" });
  return typeof output === "string" ? { content: output, isError: false } : { content: output.content, isError: output.isError ?? false };
}

/** Asserts that a call fails with a ToolError of `kind` and returns its message for further checks. */
export async function expectToolError(call: Promise<unknown>, kind: ToolError["kind"]): Promise<string> {
  const error: unknown = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).kind).toBe(kind);
  return (error as ToolError).message;
}
