import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { toolCallsOf } from "../../types/index.js";
import { importTauBench } from "./import-tau-bench.js";
import { importTranscriptFiles } from "./import-transcript-files.js";
import { loadOpenAIToolsFile } from "./load-openai-tools-file.js";

const file = "fixtures/tau-bench-trajectories.json";
const text = readFileSync(new URL(file, import.meta.url), "utf8");
const toolsPath = fileURLToPath(new URL("fixtures/tau-bench-tools.json", import.meta.url));

describe("importTauBench", () => {
  const { transcripts, problems } = importTauBench(text, file);

  it("makes one transcript per dialogue and one call per assistant message", () => {
    expect(transcripts.map((transcript) => [transcript.id, transcript.calls.length])).toEqual([
      ["task7-trial0", 4],
      ["task7-trial1", 2],
    ]);
    expect(transcripts[0]).toMatchObject({ systemKnown: true, toolsKnown: false, meta: { taskId: 7, trial: 0, reward: 0 } });
  });

  it("gives each call the policy as system prompt and the dialogue before it", () => {
    const call = transcripts[0]?.calls[2];
    expect(call?.request.system.staticText).toMatch(/^# Airline Agent Policy/);
    expect(call?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "tool"]);
    expect(call?.request.messages[4]).toMatchObject({ toolName: "get_reservation_details", isError: false, meta: { id: "task7-trial0:5" } });
    expect(call?.response && toolCallsOf(call.response).map((part) => part.name)).toEqual(["cancel_reservation"]);
    expect(transcripts[0]?.calls[3]?.request.messages[0]).toBe(call?.request.messages[0]);
  });

  it("marks the tool results τ-bench reports as errors", () => {
    expect(transcripts[0]?.calls[3]?.request.messages.at(-1)).toMatchObject({ content: "Error: reservation cannot be cancelled", isError: true });
  });

  it("reports an element that is not a dialogue", () => {
    expect(problems).toEqual([{ file, reason: "[2]: expected {task_id, trial, traj: [...]}" }]);
  });

  it("takes the tools from a tools file, since the trajectories do not record them", async () => {
    const tools = loadOpenAIToolsFile(toolsPath);
    expect(tools.map((tool) => tool.name)).toEqual(["cancel_reservation", "get_reservation_details", "get_user_details"]);
    const withTools = await importTranscriptFiles([fileURLToPath(new URL(file, import.meta.url))], { tools });
    expect(withTools.transcripts[1]).toMatchObject({ toolsKnown: true });
    expect(withTools.transcripts[1]?.calls[0]?.request.tools).toBe(tools);
  });

  it("rejects a tools file that is not a list of tool schemas", () => {
    expect(() => loadOpenAIToolsFile(fileURLToPath(new URL(file, import.meta.url)))).toThrow(/not a list of OpenAI tool schemas/);
    expect(() => loadOpenAIToolsFile("/nonexistent/tools.json")).toThrow(expect.objectContaining({ code: "transcript_invalid" }));
  });
});

describe("importTauBench on a run τ-bench recorded as failed (see fixtures/README.md)", () => {
  it("says the run ended on a recorded error instead of showing an agent that never called the model", () => {
    const errorFile = "fixtures/tau-bench-error-run.json";
    const { transcripts, problems } = importTauBench(readFileSync(new URL(errorFile, import.meta.url), "utf8"), errorFile);
    expect(problems).toEqual([]);
    expect(transcripts.map((transcript) => [transcript.id, transcript.calls.length])).toEqual([["task0-trial0", 0]]);
    expect(transcripts[0]?.notes).toEqual(["τ-bench recorded an error for this run, which ended it after 0 call(s): EOF when reading a line"]);
  });
});
