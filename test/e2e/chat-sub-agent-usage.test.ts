import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { runInPty, type PtySession } from "../run-pty.js";

// `/usage` in `ctxkit chat` (on a pseudo-terminal) counts what the agent's sub-agents used too.
let server: OpenAIModelServer | undefined;
let pty: PtySession | undefined;
afterEach(async () => {
  pty?.kill();
  pty = undefined;
  await server?.close();
  server = undefined;
});

type Body = { messages: Array<{ role: string; content?: unknown }> };

describe("ctxkit chat /usage", { timeout: 120_000 }, () => {
  it("shows the sub-agents' tokens and cost on their own labelled line, and the total with them", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-sub-agents-"));
    await mkdir(join(cwd, "src"));
    await writeFile(join(cwd, "src", "payment.ts"), "export function handleCallback() {}\n");
    server = await startOpenAIModelServer((body: Body) => {
      const hasToolResult = body.messages.some((message) => message.role === "tool");
      if (String(body.messages[0]?.content ?? "").includes("You are explore")) {
        return hasToolResult ? "handleCallback is in src/payment.ts:1." : { toolCalls: [{ name: "grep", arguments: { pattern: "handleCallback" } }] };
      }
      return hasToolResult ? "It is in src/payment.ts." : { toolCalls: [{ name: "task", arguments: { agent: "explore", description: "find the callback", prompt: "Where is handleCallback defined?" } }] };
    });
    pty = runInPty(["chat", "--base-url", server.baseURL, "--model", "gpt-4.1"], { cwd });
    await pty.waitFor("> ");
    pty.write("Where is the payment callback handled?\r");
    await pty.waitFor("It is in src/payment.ts.");
    const from = pty.screen.length;
    pty.write("/usage\r");
    await pty.waitFor("total with sub-agents", { from });
    const usage = pty.screen.slice(from);
    expect(usage).toMatch(/this agent: [\d,]+ prompt tokens \(\d+\.\d% cached\), \d+ output, 2 calls, append-only limit/);
    const child = /sub-agents \(task tool\): 1 run, ([\d,]+) prompt tokens \(\d+\.\d% cached\), \d+ output, cost \$\d+\.\d{4}/.exec(usage);
    expect(child).not.toBeNull();
    const own = Number(/this agent: ([\d,]+) prompt tokens/.exec(usage)![1]!.replace(/,/g, ""));
    const total = Number(/total with sub-agents: ([\d,]+) prompt tokens/.exec(usage)![1]!.replace(/,/g, ""));
    expect(total).toBe(own + Number(child![1]!.replace(/,/g, "")));
    // Four model calls reached the server: two of the agent's, two of explore's.
    expect(server.requests).toHaveLength(4);
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
  });
});
