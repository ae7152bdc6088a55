import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renameStateToProvince } from "./province-addresses.js";
import { replayTauDialogues } from "./replay-tau-dialogues.js";
import { loadTauDomain } from "./tau-domain.js";
import { parseTauTrajectories } from "./tau-trajectories.js";
import { airlineFixture } from "./test-support/tau-fixtures.js";

// A dialogue in the format of τ-bench's historical_trajectories files, written against the fixture.
const recorded = JSON.stringify([
  {
    task_id: 0,
    trial: 0,
    reward: 1,
    info: { task: { user_id: "mia_li_1", instruction: "Cancel ABC123.", actions: [{ name: "cancel_reservation", kwargs: { reservation_id: "ABC123" } }], outputs: [] } },
    traj: [
      { role: "system", content: "# Airline policy (fixture)" },
      { role: "user", content: "Please cancel reservation ABC123, I am mia_li_1." },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_reservation_details", arguments: '{"reservation_id": "ABC123"}' } }] },
      { role: "tool", tool_call_id: "call_1", name: "get_reservation_details", content: "" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_2", type: "function", function: { name: "calculate", arguments: '{"expression": "300 * 1"}' } }] },
      { role: "tool", tool_call_id: "call_2", name: "calculate", content: "300.0" },
      { role: "assistant", content: "Shall I cancel it? (yes/no)" },
      { role: "user", content: "yes" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_3", type: "function", function: { name: "cancel_reservation", arguments: '{"reservation_id": "ABC123"}' } }] },
      { role: "tool", tool_call_id: "call_3", name: "cancel_reservation", content: "" },
      { role: "assistant", content: "Done: ABC123 is cancelled." },
      { role: "user", content: "Thanks! ###STOP###" },
    ],
  },
]);

describe("replaying recorded τ-bench dialogues through the ctxkit loop", () => {
  it("executes every recorded call with ctxkit's tools and computes the reward", async () => {
    const domain = airlineFixture();
    const dialogues = parseTauTrajectories(recorded, "fixture.json");
    // Fill in the outputs the tools give on the fixture data, as a recording would hold them.
    const data = domain.freshData();
    const reservation = domain.tools.get("get_reservation_details")?.invoke(data, new Map([["reservation_id", "ABC123"]])) ?? "";
    const messages = dialogues[0]!.messages;
    messages[3]!.content = reservation;
    messages[9]!.content = domain.tools.get("cancel_reservation")?.invoke(data, new Map([["reservation_id", "ABC123"]])) ?? "";

    const report = await replayTauDialogues(domain, dialogues);
    expect(report).toMatchObject({ dialogues: 1, toolCalls: 3, outputsMatched: 3, rewardsMatched: 1, differences: [] });
  });

  it("lists a recorded output that differs", async () => {
    const domain = airlineFixture();
    const dialogues = parseTauTrajectories(recorded, "fixture.json");
    const report = await replayTauDialogues(domain, dialogues);
    expect(report.outputsMatched).toBe(1);
    expect(report.differences.map((difference) => [difference.call, difference.tool, difference.recorded])).toEqual([
      [0, "get_reservation_details", ""],
      [2, "cancel_reservation", ""],
    ]);
  });

  const corpus = "../shared/corpus/tau-bench";
  it.skipIf(!existsSync(`${corpus}/trajectories/gpt-4o-airline.json`))(
    "reproduces the first 25 recorded GPT-4o airline dialogues byte for byte (corpus; the full run is `ctxkit bench tau replay`)",
    async () => {
      const domain = await loadTauDomain("airline", `${corpus}/airline`, { transformRecords: renameStateToProvince });
      const file = `${corpus}/trajectories/gpt-4o-airline.json`;
      const dialogues = parseTauTrajectories(readFileSync(file, "utf8"), file).slice(0, 25);
      const report = await replayTauDialogues(domain, dialogues);
      expect(report.differences).toEqual([]);
      expect(report.rewardsMatched).toBe(25);
    },
    240_000,
  );
});
