import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { runInPty, type PtySession } from "../run-pty.js";

// Ctrl-R in `ctxkit chat` on a real pseudo-terminal, through the same input layer a person types into.
let server: OpenAIModelServer | undefined;
let pty: PtySession | undefined;
afterEach(async () => {
  pty?.kill();
  pty = undefined;
  await server?.close();
  server = undefined;
});

type Body = { messages: Array<{ role: string; content?: unknown }> };
const lastUserText = (target: OpenAIModelServer, call: number) =>
  String((JSON.parse(target.requests[call]!.body) as Body).messages.filter((message) => message.role === "user").at(-1)?.content ?? "");

describe("Ctrl-R history search in ctxkit chat", { timeout: 180_000 }, () => {
  it("steps to older matches, cancels with Esc and Ctrl-G keeping the typed line, and sends the match with Enter", async () => {
    server = await startOpenAIModelServer(["R1.", "R2.", "R3.", "R4.", "R5."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-search-"));
    pty = runInPty(["chat", "--base-url", server.baseURL, "--model", "m", "--status-bar", "off"], { cwd });
    await pty.waitFor("> ");
    for (const [message, reply] of [["alpha one", "R1."], ["alpha two", "R2."], ["beta three", "R3."]] as const) {
      pty.write(`${message}\r`);
      await pty.waitFor(new RegExp(`${reply.replace(".", "\\.")}\\n> `));
    }
    let from = pty.screen.length;
    pty.write("\u0012alpha");
    await pty.waitFor("(reverse-i-search)`alpha': alpha two", { from });
    pty.write("\u0012");
    await pty.waitFor("(reverse-i-search)`alpha': alpha one", { from });
    pty.write("\u0012");
    await pty.waitFor("(failed reverse-i-search)`alpha': alpha one", { from });
    // Esc gives up: nothing is sent, the prompt comes back empty.
    from = pty.screen.length;
    pty.write("\u001b");
    await pty.waitFor("> ", { from });
    pty.write("draft");
    await pty.waitFor("draft", { from });
    pty.write("\u0012beta");
    await pty.waitFor("(reverse-i-search)`beta': beta three", { from });
    // Ctrl-G gives up too, and the line typed before the search is still there: Enter sends it.
    pty.write("\u0007");
    pty.write("\r");
    await pty.waitFor("R4.", { from });
    from = pty.screen.length;
    pty.write("\u0012alpha\u0012");
    await pty.waitFor("(reverse-i-search)`alpha': alpha one", { from });
    pty.write("\r");
    await pty.waitFor("R5.", { from });
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(server.requests).toHaveLength(5);
    expect(lastUserText(server, 3)).toMatch(/draft$/);
    expect(lastUserText(server, 4)).toMatch(/alpha one$/);
  });
});
