import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// A miniature airline domain folder in the corpus layout (flights.json, reservations.json,
// users.json, tools.json, wiki.md), so the CLI runs without the corpus.
async function fixtureDomain(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-tau-"));
  const files: Record<string, unknown> = {
    "flights.json": {},
    "reservations.json": {
      R1: { reservation_id: "R1", user_id: "u1", payment_history: [{ payment_id: "gift_card_1", amount: 120 }], status: null },
    },
    "users.json": { u1: { name: { first_name: "Ana", last_name: "Lopes" }, payment_methods: { gift_card_1: { source: "gift_card", amount: 10, id: "gift_card_1" } }, reservations: ["R1"] } },
    "tools.json": [{ type: "function", function: { name: "cancel_reservation", description: "Cancel a reservation.", parameters: { type: "object", properties: { reservation_id: { type: "string" } }, required: ["reservation_id"] } } }],
    "tasks.json": [
      { user_id: "u1", instruction: "cancel", actions: [{ name: "cancel_reservation", kwargs: { reservation_id: "R1" } }, { name: "send_certificate", kwargs: { user_id: "u1", amount: 50 } }, { name: "teleport", kwargs: {} }], outputs: [] },
      { user_id: "u1", instruction: "nothing", actions: [{ name: "cancel_reservation", kwargs: {} }], outputs: [] },
    ],
  };
  for (const [name, value] of Object.entries(files)) await writeFile(join(directory, name), JSON.stringify(value));
  await writeFile(join(directory, "wiki.md"), "# Policy\n");
  return directory;
}

describe("ctxkit bench tau", () => {
  it("actions --json prints each gold action's output and the final data hash; --dump-data writes the data", async () => {
    const directory = await fixtureDomain();
    const run = await runCli(["bench", "tau", "actions", "--domain", "airline", "--domain-dir", directory, "--tasks", join(directory, "tasks.json"), "--json", "--dump-data", join(directory, "out")], { cwd: directory });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { domain: string; tasks: Array<{ index: number; outputs: string[]; dataHash: string }> };
    expect(json.domain).toBe("airline");
    expect(json.tasks.map((task) => task.index)).toEqual([0, 1]);
    expect(json.tasks[0]?.outputs).toEqual([
      '{"reservation_id": "R1", "user_id": "u1", "payment_history": [{"payment_id": "gift_card_1", "amount": 120}, {"payment_id": "gift_card_1", "amount": -120}], "status": "cancelled"}',
      "Certificate certificate_3221322 added to user u1 with amount 50.",
      "Unknown action teleport",
    ]);
    expect(json.tasks[1]?.outputs).toEqual(["Error: CancelReservation.invoke() missing 1 required positional argument: 'reservation_id'"]);
    expect(json.tasks[0]?.dataHash).toMatch(/^[0-9a-f]{64}$/);
    expect(json.tasks[0]?.dataHash).not.toBe(json.tasks[1]?.dataHash);
    const dumped = await readFile(join(directory, "out", "0.json"), "utf8");
    expect(Object.keys(JSON.parse(dumped) as object)).toEqual(["flights", "reservations", "users"]);
    expect(dumped).toContain('"certificate_3221322": {"source": "certificate", "amount": 50, "id": "certificate_3221322"}');
  }, 60_000);

  it("replay is skipped with a clear message when there is no corpus", async () => {
    const directory = await fixtureDomain();
    const run = await runCli(["bench", "tau", "replay", "--corpus", join(directory, "missing")], { cwd: directory });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("skipped — no recorded dialogues");
  }, 60_000);

  it("lint tools reports findings with codes and exits 1", async () => {
    const directory = await fixtureDomain();
    const run = await runCli(["lint", "tools", join(directory, "tools.json"), "--json"], { cwd: directory });
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { tools: number; findings: Array<{ code: string }> };
    expect(json.tools).toBe(1);
    expect(json.findings.map((finding) => finding.code)).toEqual(["one_line_description", "no_when_to_use", "parameter_without_description", "strict_mode_rejects"]);
  }, 60_000);

  const corpus = resolve("../shared/corpus/tau-bench");
  it.skipIf(!existsSync(join(corpus, "retail", "tasks_test.json")))("actions runs the corpus' 115 retail test tasks (corpus)", async () => {
    const run = await runCli(["bench", "tau", "actions", "--domain", "retail", "--tasks", join(corpus, "retail", "tasks_test.json")], { cwd: resolve("."), timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/115 tasks, 582 actions \(24 Error:, 0 Unknown action\)/);
  }, 150_000);
});
