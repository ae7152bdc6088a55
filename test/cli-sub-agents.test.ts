import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = { messages: Array<{ role: string; content?: unknown }>; tools?: Array<{ function: { name: string } }> };

describe("ctxkit run with sub-agents", () => {
  it("hands a search to explore, records the child's session and shows the link in sessions show and inspect", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-cli-sub-agents-"));
    await mkdir(join(cwd, "src"), { recursive: true });
    await writeFile(join(cwd, "src", "payment.ts"), "export function handleCallback() {}\n");
    const seen: Body[] = [];
    server = await startOpenAIModelServer((body: Body) => {
      seen.push(body);
      const system = String(body.messages[0]?.content ?? "");
      if (system.includes("You are explore")) {
        return body.messages.some((message) => message.role === "tool") ? "handleCallback is in src/payment.ts:1." : { toolCalls: [{ name: "grep", arguments: { pattern: "handleCallback" } }] };
      }
      if (!body.messages.some((message) => message.role === "tool")) {
        return { toolCalls: [{ name: "task", arguments: { agent: "explore", description: "find the callback", prompt: "Where is handleCallback defined?" } }] };
      }
      return "It is in src/payment.ts.";
    });
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "gpt-4.1", "--json", "Where is the payment callback handled?"], { cwd });
    expect(run.code).toBe(0);
    const end = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { sessionId: string; usage: { inputTokens: number }; subAgentUsage: { inputTokens: number } };
    expect(end.subAgentUsage.inputTokens).toBeGreaterThan(0);
    expect(end.usage.inputTokens).toBeGreaterThan(end.subAgentUsage.inputTokens);
    // The main agent has the task tool; explore only its read-only tools.
    expect(seen[0]!.tools!.map((tool) => tool.function.name)).toContain("task");
    const exploreBody = seen.find((body) => String(body.messages[0]?.content).includes("You are explore"))!;
    expect(exploreBody.tools!.map((tool) => tool.function.name).sort()).toEqual(["glob", "grep", "list_dir", "read_file"]);

    const show = await runCli(["sessions", "show", end.sessionId], { cwd });
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/sub-agents: 1 run, [\d,]+ prompt tokens/);
    expect(show.stdout).toMatch(/total with sub-agents: /);
    const childId = /↳ explore "find the callback" → session (\S+) \(final_answer, 2 calls/.exec(show.stdout)?.[1];
    expect(childId).toBeDefined();
    expect(show.stdout).toContain(`[sub-agent session ${childId}]`);
    const listed = await runCli(["sessions", "list"], { cwd });
    expect(listed.stdout).toMatch(new RegExp(`^${childId} .*\\[sub-agent of ${end.sessionId}\\] — Where is handleCallback defined\\?$`, "m"));
    expect(listed.stdout).toMatch(new RegExp(`^${end.sessionId} (?!.*sub-agent of).*$`, "m"));
    const listedJson = JSON.parse((await runCli(["sessions", "list", "--json"], { cwd })).stdout) as Array<{ id: string; parentSessionId?: string; subAgentSessionIds?: string[] }>;
    expect(listedJson.find((session) => session.id === childId)).toMatchObject({ parentSessionId: end.sessionId });
    expect(listedJson.find((session) => session.id === end.sessionId)).toMatchObject({ subAgentSessionIds: [childId] });
    expect(listedJson.find((session) => session.id === end.sessionId)!.parentSessionId).toBeUndefined();
    const child = await runCli(["sessions", "show", childId!], { cwd });
    expect(child.stdout).toContain("user: Where is handleCallback defined?");

    const inspect = await runCli(["inspect", join(cwd, ".ctxkit", "sessions", `${end.sessionId}.jsonl`)], { cwd });
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain(`sub-agent explore "find the callback" ran in session ${childId}`);
  }, 60_000);

  it("--no-sub-agents leaves the task tool out", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-cli-no-sub-agents-"));
    const seen: Body[] = [];
    server = await startOpenAIModelServer((body: Body) => {
      seen.push(body);
      return "ok";
    });
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--no-sub-agents", "hi"], { cwd });
    expect(run.code).toBe(0);
    expect(seen[0]!.tools!.map((tool) => tool.function.name)).not.toContain("task");
  }, 60_000);
});
