import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import type { DurableAssembly } from "../../durable/durable-agent-builder.js";
import { createDurableBuilders } from "./durable-builders.js";

describe("a CLI worker's agent of a run", () => {
  // Never reached: the builder refuses before it builds anything.
  const assembly = {} as DurableAssembly;
  const build = createDurableBuilders({}, {} as pg.Pool).cli!;

  it("is refused, naming the worker's host, when the run's workspace does not exist there (and the folder is not created)", async () => {
    const workspace = join(await mkdtemp(join(tmpdir(), "ctxkit-worker-")), "gone");
    await expect(build({ workspace, settings: { model: "m" } }, assembly)).rejects.toMatchObject({ code: "option_invalid", message: expect.stringContaining(hostname()) });
    expect(existsSync(workspace)).toBe(false);
  });

  it("is refused when the run's workspace is a file", async () => {
    const workspace = join(await mkdtemp(join(tmpdir(), "ctxkit-worker-")), "file");
    await writeFile(workspace, "");
    await expect(build({ workspace, settings: { model: "m" } }, assembly)).rejects.toMatchObject({ code: "option_invalid", message: expect.stringContaining("is not a folder") });
  });
});
