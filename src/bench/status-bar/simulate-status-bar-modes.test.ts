import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importTranscriptFiles } from "../../inspect/importers/import-transcript-files.js";
import { repliesSentBackAsGenerated } from "./simulate-status-bar-modes.js";

// A real recording: a swe-gemini run (mini-swe-agent + Gemini 3 Pro, see ../shared/corpus/README.md).
const file = resolve("../shared/corpus/swe-gemini/astropy__astropy-12907.traj.json");

describe.skipIf(!existsSync(file))("repliesSentBackAsGenerated on a real run", () => {
  it("is false for mini-swe-agent, which drops Gemini's reasoning from the history", async () => {
    const { transcripts } = await importTranscriptFiles([file], { format: "mini-swe-agent" });
    expect(repliesSentBackAsGenerated(transcripts[0]!)).toBe(false);
  });
});
