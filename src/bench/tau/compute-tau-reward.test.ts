import { describe, expect, it } from "vitest";
import { computeTauReward } from "./compute-tau-reward.js";
import { invokeTauTool } from "./invoke-tau-tool.js";
import { airlineFixture, kwargs } from "./test-support/tau-fixtures.js";
import type { TauTask } from "./tau-task.js";

const domain = airlineFixture();
const cancel = { name: "cancel_reservation", kwargs: kwargs('{"reservation_id": "ABC123"}') };
const task = (outputs: string[] = []): TauTask => ({ userId: "mia_li_1", instruction: "", actions: [cancel, { name: "transfer_to_human_agents", kwargs: kwargs('{"summary": "x"}') }], outputs });

describe("the τ-bench reward", () => {
  it("is 1 when the agent leaves the data the gold actions leave (terminating tools skipped)", () => {
    const data = domain.freshData();
    invokeTauTool(domain.tools, data, "cancel_reservation", kwargs('{"reservation_id": "ABC123"}'));
    const reward = computeTauReward(domain, task(), data, []);
    expect(reward).toMatchObject({ reward: 1, dataMatches: true });
    expect(reward.dataHash).toBe(reward.goldDataHash);
  });

  it("is 0 when the data differs, even by one changed payment", () => {
    const data = domain.freshData();
    expect(computeTauReward(domain, task(), data, []).reward).toBe(0);
    invokeTauTool(domain.tools, data, "cancel_reservation", kwargs('{"reservation_id": "ABC123"}'));
    invokeTauTool(domain.tools, data, "send_certificate", kwargs('{"user_id": "mia_li_1", "amount": 50}'));
    expect(computeTauReward(domain, task(), data, []).dataMatches).toBe(false);
  });

  it("needs every output in some reply, case-insensitive with the reply's commas removed", () => {
    const data = domain.freshData();
    invokeTauTool(domain.tools, data, "cancel_reservation", kwargs('{"reservation_id": "ABC123"}'));
    expect(computeTauReward(domain, task(["1628"]), data, ["The total is $1,628."]).reward).toBe(1);
    expect(computeTauReward(domain, task(["HAT001", "1628"]), data, ["Flight hat001 is booked."]).outputs).toEqual({ HAT001: true, "1628": false });
    expect(computeTauReward(domain, task(["HAT001", "1628"]), data, ["Flight hat001 is booked."]).reward).toBe(0);
  });
});
