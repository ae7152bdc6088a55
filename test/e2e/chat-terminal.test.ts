import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, startOpenAIModelServer, type LoopbackServer, type OpenAIModelServer } from "../../src/testing.js";
import { runInPty, type PtySession } from "../run-pty.js";

// `ctxkit chat` on a real pseudo-terminal (util-linux `script`), against a loopback model server.
let server: OpenAIModelServer | undefined;
let gate: LoopbackServer | undefined;
let pty: PtySession | undefined;
afterEach(async () => {
  pty?.kill();
  pty = undefined;
  await server?.close();
  await gate?.close();
  server = undefined;
  gate = undefined;
});

type Body = { messages: Array<{ role: string; content?: unknown }> };
const userTexts = (target: LoopbackServer) =>
  target.requests.map((request) => (JSON.parse(request.body) as Body).messages.filter((message) => message.role === "user").map((message) => String(message.content)));

async function workspace(): Promise<string> {
  return mkdtemp(join(tmpdir(), "ctxkit-chat-tty-"));
}

function chat(cwd: string, baseURL: string, extra: string[] = []): PtySession {
  return runInPty(["chat", "--base-url", baseURL, "--model", "m", "--status-bar", "off", ...extra], { cwd });
}

describe("ctxkit chat on a terminal", { timeout: 120_000 }, () => {
  it("sends a bracketed paste of several lines as one message, and a line ending in \\ continues", async () => {
    server = await startOpenAIModelServer(["Got the paste.", "Got both lines.", "Got the Alt+Enter."]);
    const cwd = await workspace();
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("\u001b[200~line one\rline two\rline three\rline four\u001b[201~");
    await pty.waitFor("[pasted 4 lines #1]");
    pty.write("\r");
    await pty.waitFor("Got the paste.");
    await pty.waitFor(/Got the paste\.\n> /);
    const mark = pty.screen.length;
    pty.write("first half \\\r");
    await pty.waitFor("… ", { from: mark });
    pty.write("second half\r");
    await pty.waitFor(/Got both lines\.\n> /);
    // Alt+Enter (ESC CR) continues like a trailing backslash.
    pty.write("alt first\u001b\r");
    await pty.waitFor(/alt first\\\n… /);
    pty.write("alt second\r");
    await pty.waitFor("Got the Alt+Enter.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(userTexts(server)[2]!.at(-1)).toMatch(/alt first\nalt second$/);
    expect(userTexts(server)[0]!.at(-1)).toMatch(/line one\nline two\nline three\nline four$/);
    expect(userTexts(server)[1]!.at(-1)).toMatch(/first half \nsecond half$/);
  });

  it("keeps the prompt history per workspace: Up recalls the last session's message", async () => {
    server = await startOpenAIModelServer(["One.", "Two."]);
    const cwd = await workspace();
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("remember this line\r");
    await pty.waitFor("One.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(await readFile(join(cwd, ".ctxkit", "chat-history"), "utf8")).toContain("remember this line");

    pty = chat(cwd, server.baseURL);
    await pty.waitFor("Type /help");
    const mark = pty.screen.length;
    pty.write("\u001b[A");
    await pty.waitFor("remember this line", { from: mark });
    // Left arrow and typing edit inside the line instead of printing ^[[D.
    pty.write("\u001b[D\u001b[DX\r");
    await pty.waitFor("Two.");
    expect(pty.screen).not.toContain("^[[");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(userTexts(server)[1]!.at(-1)).toMatch(/remember this liXne$/);
  });

  it("finds an earlier message with Ctrl-R and sends it with Enter", async () => {
    server = await startOpenAIModelServer(["A.", "B.", "C."]);
    const cwd = await workspace();
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("alpha one\r");
    await pty.waitFor(/A\.\n> /);
    pty.write("beta two\r");
    await pty.waitFor(/B\.\n> /);
    pty.write("\u0012alp");
    await pty.waitFor("(reverse-i-search)`alp': alpha one");
    pty.write("\r");
    await pty.waitFor("C.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(userTexts(server)[2]!.at(-1)).toMatch(/alpha one$/);
  });

  it("completes / commands with Tab", async () => {
    server = await startOpenAIModelServer([]);
    const cwd = await workspace();
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("/us\t");
    await pty.waitFor("/usage");
    pty.write("\r");
    await pty.waitFor("append-only limit");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("queues a message typed while the model works instead of taking it as the confirmation's answer", async () => {
    server = await startOpenAIModelServer([
      { toolCalls: [{ name: "write_file", arguments: { path: "hello.txt", content: "hi there\n" } }] },
      "Wrote it.",
      "Answering the queued message.",
    ]);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const upstream = server;
    // Holds the first model call until the test has typed ahead, then relays the scripted reply.
    gate = await startLoopbackServer(async (request) => {
      if (upstream.requests.length === 0) await held;
      const reply = await fetch(`${upstream.url}${request.path}`, { method: "POST", headers: { "content-type": "application/json" }, body: request.body });
      return { status: reply.status, headers: { "content-type": reply.headers.get("content-type") ?? "text/event-stream" }, body: await reply.text() };
    });
    const cwd = await workspace();
    pty = chat(cwd, `${gate.url}/v1`);
    await pty.waitFor("> ");
    pty.write("create hello.txt\r");
    await pty.waitFor("waiting for the model");
    pty.write("and then say hi\r");
    await pty.waitFor("queued for after this turn: and then say hi");
    release();
    await pty.waitFor("[y]es / [n]o");
    expect(pty.screen).toContain("new file hello.txt");
    expect(pty.screen).toContain("+hi there");
    pty.write("y\r");
    await pty.waitFor("Answering the queued message.");
    // The queued message is shown when it is finally sent, like a message typed at the prompt.
    expect(pty.screen).toMatch(/Wrote it\.\s*> and then say hi\n[\s\S]*Answering the queued message\./);
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(await readFile(join(cwd, "hello.txt"), "utf8")).toBe("hi there\n");
    expect(userTexts(upstream)[2]!.at(-1)).toMatch(/and then say hi$/);
  });

  it("asks again on an unclear answer, and passes a refusal's reason to the model", async () => {
    server = await startOpenAIModelServer([
      { toolCalls: [{ name: "edit_file", arguments: { path: "app.ts", old_string: "41", new_string: "42" } }] },
      "Understood.",
    ]);
    const cwd = await workspace();
    await writeFile(join(cwd, "app.ts"), "export const answer = 41;\n");
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("fix the answer\r");
    await pty.waitFor("[y]es / [n]o");
    expect(pty.screen).toContain("-export const answer = 41;");
    expect(pty.screen).toContain("+export const answer = 42;");
    pty.write("maybe\r");
    await pty.waitFor("Please answer y, n, a");
    pty.write("n use 43, it is the new spec\r");
    await pty.waitFor("Understood.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(await readFile(join(cwd, "app.ts"), "utf8")).toBe("export const answer = 41;\n");
    const second = JSON.parse(server.requests[1]!.body) as Body;
    expect(String(second.messages.find((message) => message.role === "tool")?.content)).toContain("said: use 43, it is the new spec");
  });

  it("'a' approves a tool for the rest of the session", async () => {
    const write = (name: string) => ({ toolCalls: [{ name: "write_file", arguments: { path: name, content: "x\n" } }] });
    server = await startOpenAIModelServer([write("a.txt"), write("b.txt"), "Both written."]);
    const cwd = await workspace();
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("write two files\r");
    await pty.waitFor("[y]es / [n]o");
    pty.write("a\r");
    await pty.waitFor("Both written.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(existsSync(join(cwd, "b.txt"))).toBe(true);
    expect(pty.screen.match(/\[y\]es \/ \[n\]o/g)).toHaveLength(1);
  });

  it("renders the reply as Markdown and labels thinking on a colour terminal", async () => {
    server = await startOpenAIModelServer([{ thinking: "Let me think about it.", text: "# Result\n\nThe fix is **done**.\n\n- one\n- two\n" }]);
    const cwd = await workspace();
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("report\r");
    await pty.waitFor("two");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(pty.screen).toContain("thinking: Let me think about it.");
    expect(pty.screen).toContain("The fix is done.");
    expect(pty.screen).not.toContain("**done**");
  });

  it("announces an AGENTS.md changed mid-session as a message and leaves the system prompt alone", async () => {
    server = await startOpenAIModelServer(["First.", "Second."]);
    const cwd = await workspace();
    await writeFile(join(cwd, "AGENTS.md"), "Answer in English.\n");
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("Project instructions:");
    await pty.waitFor("> ");
    pty.write("one\r");
    await pty.waitFor(/First\.\n> /);
    await writeFile(join(cwd, "AGENTS.md"), "Answer in French.\n");
    pty.write("two\r");
    await pty.waitFor("Second.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    const [first, second] = server.requests.map((request) => JSON.parse(request.body) as Body);
    expect(second!.messages[0]).toEqual(first!.messages[0]);
    expect(String(first!.messages[0]!.content)).toContain("Answer in English.");
    expect(userTexts(server)[1]!.at(-1)).toMatch(/project instructions changed[\s\S]*Answer in French\.[\s\S]*two$/);
  });

  // Ctrl-C at a question used to leave it waiting: the next line typed was taken as its answer.
  it("stops the turn on Ctrl-C at a question: nothing is written or asked again, and the session goes on and resumes whole", async () => {
    const write = (name: string) => ({ name: "write_file", arguments: { path: name, content: "x\n" } });
    server = await startOpenAIModelServer([{ toolCalls: [write("a.txt"), write("b.txt")] }, "Nothing was written.", "Still nothing."]);
    const cwd = await workspace();
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("write two files\r");
    await pty.waitFor("[y]es / [n]o");
    pty.write("y");
    pty.write("\u0003");
    await pty.waitFor("not run: you stopped the turn");
    await pty.waitFor(/\[stopped: aborted\]\s*> /);
    pty.write("what happened?\r");
    await pty.waitFor("Nothing was written.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(existsSync(join(cwd, "a.txt")) || existsSync(join(cwd, "b.txt"))).toBe(false);
    expect(pty.screen.match(/\[y\]es \/ \[n\]o/g)).toHaveLength(1);
    // Each call of the stopped turn has its result (a provider rejects a call without one), then the next message.
    const sent = (index: number) => (JSON.parse(server!.requests[index]!.body) as Body).messages.map((message) => message.role);
    expect(sent(1).slice(-4)).toEqual(["assistant", "tool", "tool", "user"]);
    expect(userTexts(server)[1]!.at(-1)).toMatch(/what happened\?$/);

    pty = chat(cwd, server.baseURL, ["--continue"]);
    await pty.waitFor("Resumed session");
    pty.write("and now?\r");
    await pty.waitFor("Still nothing.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(sent(2).slice(0, sent(1).length)).toEqual(sent(1));
  });

  it("leaves with exit code 130 on Ctrl-C twice at the prompt", async () => {
    server = await startOpenAIModelServer([]);
    const cwd = await workspace();
    pty = chat(cwd, server.baseURL);
    await pty.waitFor("> ");
    pty.write("\u0003");
    await pty.waitFor("press Ctrl-C again");
    pty.write("\u0003");
    expect(await pty.exited).toBe(130);
  });
});

describe("benchmark progress on a terminal", { timeout: 120_000 }, () => {
  it("shows a progress bar with counts and an ETA on a terminal, and nothing when piped", async () => {
    const cwd = await workspace();
    const fixture = join(process.cwd(), "src/inspect/importers/fixtures/mini-swe-agent.traj.json");
    await writeFile(join(cwd, "second.traj.json"), await readFile(fixture, "utf8"));
    pty = runInPty(["replay", fixture, join(cwd, "second.traj.json"), "--policy", "none", "--window", "32000"], { cwd });
    await pty.waitFor("JSON:");
    expect(await pty.exited).toBe(0);
    expect(pty.screen).toMatch(/replaying \[[^\]]*\] \d\/2 \| \d+% \| ETA/);
  });
});
