import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
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

const writeHello = { toolCalls: [{ name: "write_file", arguments: { path: "hello.txt", content: "hi there\n" } }] };

describe("ctxkit chat", () => {
  it("shows the diff in the confirmation prompt and runs the call when approved", async () => {
    server = await startOpenAIModelServer([writeHello, "Wrote hello.txt."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-"));
    const run = await runCli(["chat", "--base-url", server.baseURL, "--model", "m"], {
      cwd,
      input: [
        "Please create hello.txt",
        { line: "y", waitFor: "[y]es / [n]o" },
        { line: "/usage", waitFor: "Wrote hello.txt." },
        { line: "/exit", waitFor: "cached" },
      ],
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Allow write_file?");
    expect(run.stdout).toContain("new file hello.txt");
    expect(run.stdout).toContain("+hi there");
    expect(run.stdout).toMatch(/prompt tokens \(\d+\.\d% cached\), \d+ output, 2 calls, append-only limit \d+\.\d% cached/);
    expect(await readFile(join(cwd, "hello.txt"), "utf8")).toBe("hi there\n");
    expect(run.stdout).toMatch(/Resume with: ctxkit chat --session \S+/);
  });

  it("does not run a declined call and tells the model it was declined", async () => {
    server = await startOpenAIModelServer([writeHello, "Understood, I did not write it."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-"));
    const run = await runCli(["chat", "--base-url", server.baseURL, "--model", "m"], {
      cwd,
      input: ["Please create hello.txt", { line: "n", waitFor: "[y]es / [n]o" }, { line: "/exit", waitFor: "did not write it" }],
    });
    expect(run.code).toBe(0);
    expect(existsSync(join(cwd, "hello.txt"))).toBe(false);
    const secondRequest = JSON.parse(server.requests[1]!.body) as { messages: Array<{ role: string; content: string }> };
    // The status bar (on by default) comes after the tool result, so look the result up by role.
    expect(secondRequest.messages.find((message) => message.role === "tool")).toMatchObject({ content: expect.stringContaining("The user declined this call to 'write_file'") });
  });

  it("answers /help, /tools and /session without calling the model", async () => {
    server = await startOpenAIModelServer([]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-"));
    const run = await runCli(["chat", "--base-url", server.baseURL, "--model", "m", "--tools", "read_file,grep"], {
      cwd,
      input: ["/help", "/tools", "/session", "/nope", "/exit"],
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("/usage     tokens so far");
    // /help is the chat's keys and commands only, not `chat --help`'s start-up flags.
    expect(run.stdout).toContain("Tab completes /commands and /<skill> names.");
    expect(run.stdout).not.toContain("--base-url");
    expect(run.stdout).not.toContain("Usage: ctxkit chat");
    expect(run.stdout).toMatch(/ {2}grep\n {2}notes_read\n {2}notes_write\n {2}read_file\n/);
    expect(run.stdout).toContain("resume with: ctxkit chat --session");
    expect(run.stdout).toContain("Unknown command /nope");
    expect(server.requests).toHaveLength(0);
  });
});
