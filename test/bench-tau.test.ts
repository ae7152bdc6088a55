import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { startOpenAIModelServer } from "../src/testing/openai-model-server.js";
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

  it("run drives a live agent against an LLM user (a loopback OpenAI-compatible server) and reports pass^k per arm", async () => {
    const directory = await fixtureDomain();
    // One server plays both models: requests whose system prompt is the user simulator's get the
    // customer's lines, the others the agent's (a tool call, then a reply).
    const server = await startOpenAIModelServer((body) => {
      const system = String(body.messages[0]?.content ?? "");
      const turns = body.messages.filter((message) => message.role !== "system").length;
      if (system.includes("You are playing a customer")) return turns <= 1 ? "Please cancel reservation R1. I am u1." : "###STOP###";
      const last = body.messages.at(-1);
      return last?.role === "tool" ? "R1 is cancelled." : { toolCalls: [{ name: "cancel_reservation", arguments: { reservation_id: "R1" } }] };
    });
    try {
      const run = await runCli(
        ["bench", "tau", "run", "--base-url", server.baseURL, "--model", "m", "--domain", "airline", "--domain-dir", directory, "--tasks-file", join(directory, "tasks.json"), "--tasks", "0-1", "--trials", "2", "--arms", "baseline,casual,no-tool-descriptions", "--json"],
        { cwd: directory, timeoutMs: 90_000 },
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("baseline task 0 trial 0: reward 0 (user_stop, 2 calls)");
      const json = JSON.parse(run.stdout) as {
        manifest: { model: string; trials: number; tasks: number[]; promptHashes: Record<string, string>; date: string };
        arms: Array<{ arm: string; successes: number; dialogues: number; passHatK: Record<string, number>; cachedShare: number }>;
        dialogues: Array<{ ending: string }>;
      };
      expect(json.manifest).toMatchObject({ model: "m", trials: 2, tasks: [0, 1] });
      expect(new Set(Object.values(json.manifest.promptHashes)).size).toBe(3);
      // Task 0's gold actions include a send_certificate the scripted agent never makes, so it fails; so does task 1.
      expect(json.arms.map((arm) => [arm.arm, arm.successes, arm.dialogues, arm.passHatK["pass^2"]])).toEqual([
        ["baseline", 0, 4, 0],
        ["casual", 0, 4, 0],
        ["no-tool-descriptions", 0, 4, 0],
      ]);
      expect(json.dialogues.every((dialogue) => dialogue.ending === "user_stop")).toBe(true);
      expect(json.arms[0]?.cachedShare).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 120_000);

  const corpus = resolve("../shared/corpus/tau-bench");
  it.skipIf(!existsSync(join(corpus, "retail", "tasks_test.json")))("actions runs the corpus' 115 retail test tasks (corpus)", async () => {
    const run = await runCli(["bench", "tau", "actions", "--domain", "retail", "--tasks", join(corpus, "retail", "tasks_test.json")], { cwd: resolve("."), timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/115 tasks, 582 actions \(24 Error:, 0 Unknown action\)/);
  }, 150_000);
});
