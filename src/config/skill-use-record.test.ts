import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRecentSkillUse, recordSkillUse } from "./skill-use-record.js";

describe("the record of recently used skills", () => {
  it("puts the latest activation first and keeps each name once", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "ctxkit-skill-use-"));
    await recordSkillUse(dataDir, ["review", "deploy"]);
    await recordSkillUse(dataDir, ["audit", "review"]);
    expect(await readRecentSkillUse(dataDir)).toEqual(["review", "audit", "deploy"]);
  });

  it("reads a missing, malformed or hostile file as no record, and drops names no skill can have", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "ctxkit-skill-use-"));
    expect(await readRecentSkillUse(dataDir)).toEqual([]);
    await writeFile(join(dataDir, "skills-used.json"), "{not json");
    expect(await readRecentSkillUse(dataDir)).toEqual([]);
    await writeFile(join(dataDir, "skills-used.json"), JSON.stringify({ names: ["ok", "../etc", 7, "A".repeat(80)] }));
    expect(await readRecentSkillUse(dataDir)).toEqual(["ok"]);
    await writeFile(join(dataDir, "skills-used.json"), JSON.stringify({ names: Array.from({ length: 20_000 }, (_, index) => `s${index}`) }));
    expect(await readRecentSkillUse(dataDir)).toEqual([]);
  });
});
