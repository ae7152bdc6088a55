import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { runInPty, type PtySession } from "../run-pty.js";
import { runCliProcess } from "./run-cli-process.js";

// The chat prompt on a real pseudo-terminal (issue 29): Ctrl-C, the history, /help and what the chat
// prints for tool errors, as a person meets them.
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

const up = "\u001b[A";

function chat(cwd: string, baseURL: string): PtySession {
  return runInPty(["chat", "--base-url", baseURL, "--model", "m", "--status-bar", "off"], { cwd });
}

describe("the ctxkit chat prompt", { timeout: 180_000 }, () => {
  it("Ctrl-C drops the typed line (a continued one too) and shows a fresh prompt; what follows is sent alone", async () => {
    server = await startOpenAIModelServer(["Only hello."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-line-"));
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    let from = pty.screen.length;
    pty.write("half typed");
    await pty.waitFor("half typed", { from });
    pty.write("\u0003");
    await pty.waitFor(/half typed\^C\n> /, { from });
    // Dropping typed text is all that Ctrl-C did: no "press again" yet.
    expect(pty.screen.slice(from)).not.toContain("press Ctrl-C again");
    from = pty.screen.length;
    pty.write("first part \\\r");
    await pty.waitFor("… ", { from });
    pty.write("\u0003");
    await pty.waitFor(/\^C\n> /, { from });
    pty.write("hello\r");
    await pty.waitFor("Only hello.", { from });
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(lastUserText(server, 0)).toMatch(/(^|\n|\] )hello$/);
    expect(lastUserText(server, 0)).not.toContain("half typed");
    expect(lastUserText(server, 0)).not.toContain("first part");
  });

  it("typing (or a few seconds) after a Ctrl-C takes back the 'press Ctrl-C again': the next Ctrl-C asks again instead of leaving", async () => {
    server = await startOpenAIModelServer([]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-line-"));
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    let from = pty.screen.length;
    pty.write("\u0003");
    await pty.waitFor("press Ctrl-C again", { from });
    from = pty.screen.length;
    pty.write("abc");
    await pty.waitFor("abc", { from });
    pty.write("\u007f\u007f\u007f");
    await new Promise((resolve) => setTimeout(resolve, 300));
    from = pty.screen.length;
    pty.write("\u0003");
    await pty.waitFor("press Ctrl-C again", { from });
    // The ask also lapses after a few seconds: a Ctrl-C much later asks again.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    from = pty.screen.length;
    pty.write("\u0003");
    await pty.waitFor("press Ctrl-C again", { from });
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
  });

  it("keeps a paste and a continued message as one history entry each, not the answers; Up stops at the oldest", async () => {
    server = await startOpenAIModelServer([
      { toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "a\n" } }] },
      "Wrote it.",
      "Got the paste.",
      "Got the lines.",
      "Paste again.",
      "Lines again.",
      "Oldest again.",
    ]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-line-"));
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("write it\r");
    await pty.waitFor("[y]es / [n]o");
    pty.write("y\r");
    await pty.waitFor(/Wrote it\.\n> /);
    pty.write("\u001b[200~line one\rline two\rline three\u001b[201~");
    await pty.waitFor("[pasted 3 lines #1]");
    pty.write("\r");
    await pty.waitFor(/Got the paste\.\n> /);
    let from = pty.screen.length;
    pty.write("first\\\r");
    await pty.waitFor("… ", { from });
    pty.write("second\u001b\r");
    await pty.waitFor(/second\\\n… /, { from });
    pty.write("third\r");
    await pty.waitFor(/Got the lines\.\n> /);
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    const saved = await readFile(join(cwd, ".ctxkit", "chat-history"), "utf8");
    expect(saved).not.toContain("[pasted");
    expect(saved.split("\n")).not.toContain("y");
    expect(saved.split("\n").filter((line) => line !== "")).toEqual(["write it", JSON.stringify("line one\nline two\nline three"), JSON.stringify("first\nsecond\nthird")]);

    // A new chat: the history is the messages as they were sent.
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("Type /help");
    from = pty.screen.length;
    pty.write(up.repeat(2));
    await pty.waitFor("line three", { from });
    pty.write("\r");
    await pty.waitFor("Paste again.", { from });
    await pty.waitFor(/Paste again\.\n> /, { from });
    from = pty.screen.length;
    pty.write(up.repeat(2));
    await pty.waitFor("third", { from });
    pty.write("\r");
    await pty.waitFor(/Lines again\.\n> /, { from });
    // Up past the oldest entry keeps it on the line (Enter sends it), never an empty line.
    from = pty.screen.length;
    pty.write(up.repeat(6));
    await pty.waitFor("write it", { from });
    await new Promise((resolve) => setTimeout(resolve, 300));
    pty.write("\r");
    await pty.waitFor("Oldest again.", { from });
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(lastUserText(server, 4)).toMatch(/line one\nline two\nline three$/);
    expect(lastUserText(server, 5)).toMatch(/first\nsecond\nthird$/);
    expect(lastUserText(server, 6)).toMatch(/write it$/);
    const sessions = await runCliProcess(["sessions", "list"], { cwd });
    expect(sessions.stdout).not.toContain("[pasted");
    expect(sessions.stdout).toContain("line one");
  });

  it("/help shows the keys and the chat's commands, without the start-up flags", async () => {
    server = await startOpenAIModelServer([]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-line-"));
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    const from = pty.screen.length;
    pty.write("/help\r");
    await pty.waitFor("/exit      leave", { from });
    const help = pty.screen.slice(from);
    expect(help).toContain("Tab completes /commands and /<skill> names.");
    expect(help).toContain("Ctrl-C stops the current turn; at the prompt it clears the line.");
    expect(help).not.toContain("--base-url");
    expect(help.split("\n").length).toBeLessThan(35);
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("cuts a tool error's line at the terminal's width", async () => {
    const long = `${"very-long-directory-name/".repeat(8)}missing.txt`;
    server = await startOpenAIModelServer([{ toolCalls: [{ name: "read_file", arguments: { path: long } }] }, "It is not there."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-line-"));
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("read it\r");
    await pty.waitFor("It is not there.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    const errorLine = pty.screen.split("\n").find((line) => line.startsWith("  ✗ "));
    expect(errorLine).toBeDefined();
    // The terminal is 100 columns wide (run-pty.ts): the line fits and says it was cut.
    expect([...errorLine!].length).toBeLessThanOrEqual(100);
    expect(errorLine).toMatch(/…$/);
  });
});
