import { request as httpRequest } from "node:http";
import { appendFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createViewSource } from "./view-source.js";
import { startViewServer, type ViewServer } from "./view-server.js";

// The session store's fixture: a ctxkit v2 session with a declared context edit before call 2.
const sessionWithEdit = fileURLToPath(new URL("../session/fixtures/v2-context-edit.jsonl", import.meta.url));

/** An OpenAI request log of two calls whose system prompt carries the time: an undeclared break on call 1. */
async function writeDynamicSystemLog(): Promise<string> {
  const system = { role: "system", content: "You are a weather assistant. Current time: 10:30." };
  const ask = { role: "user", content: "Weather in Lisbon?" };
  const usage = (prompt: number, cached: number) => ({ usage: { prompt_tokens: prompt, completion_tokens: 5, prompt_tokens_details: { cached_tokens: cached } } });
  const first = { request: { model: "gpt-4o-mini", messages: [system, ask] }, response: usage(40, 0) };
  const second = {
    request: { model: "gpt-4o-mini", messages: [{ ...system, content: system.content.replace("10:30", "10:31") }, ask, { role: "assistant", content: "Let me check." }, { role: "user", content: "And Porto?" }] },
    response: usage(60, 0),
  };
  const file = join(await mkdtemp(join(tmpdir(), "ctxkit-view-log-")), "requests.jsonl");
  await writeFile(file, `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
  return file;
}

const servers: ViewServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
let openAiLog = "";
beforeAll(async () => {
  openAiLog = await writeDynamicSystemLog();
});

async function serve(files: string[], options: { auth?: boolean; pollMilliseconds?: number } = {}) {
  const assets = await mkdtemp(join(tmpdir(), "ctxkit-view-assets-"));
  await writeFile(join(assets, "index.html"), "<!doctype html><title>viewer</title>");
  const server = await startViewServer({ source: await createViewSource(files), assetsDirectory: assets, ...options });
  servers.push(server);
  const base = `http://127.0.0.1:${server.port}`;
  const get = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init);
  const api = async (path: string) => {
    const response = await get(`${path}${path.includes("?") ? "&" : "?"}token=${server.token}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: string } };
  };
  return { server, base, get, api };
}

describe("the view server's routes", () => {
  it("listens on 127.0.0.1 only and refuses any other address", async () => {
    await expect(startViewServer({ source: await createViewSource([openAiLog]), host: "0.0.0.0" })).rejects.toMatchObject({ code: "view_address_refused" });
    const { server } = await serve([openAiLog]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{22}$/);
  });

  it("refuses a port in use with a typed port_in_use error that names no CLI flag", async () => {
    const { server } = await serve([openAiLog]);
    const source = await createViewSource([openAiLog]);
    const taken = startViewServer({ source, port: server.port });
    await expect(taken).rejects.toMatchObject({ code: "port_in_use", message: `Port ${server.port} on 127.0.0.1 is in use; choose another port, or 0 for a free one.` });
    await source.close();
  });

  it("requires the token on the page, the API and the event stream, by query, cookie or bearer header", async () => {
    const { server, get } = await serve([openAiLog]);
    for (const path of ["/", "/api/runs", "/api/events", "/assets/index.js"]) expect((await get(path)).status, path).toBe(401);
    expect((await get("/api/runs?token=wrong")).status).toBe(401);
    const page = await get(`/?token=${server.token}`);
    expect(page.status).toBe(200);
    const cookie = page.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await get("/api/runs", { headers: { cookie: cookie.split(";")[0]! } })).status).toBe(200);
    expect((await get("/api/runs", { headers: { authorization: `Bearer ${server.token}` } })).status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("serves without a token with auth off", async () => {
    const { server, get } = await serve([openAiLog], { auth: false });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect((await get("/api/runs")).status).toBe(200);
  });

  it("refuses a foreign Host header (DNS rebinding) and anything but GET", async () => {
    const { server, get } = await serve([openAiLog], { auth: false });
    const status = await new Promise<number>((resolvePromise, reject) => {
      const request = httpRequest({ host: "127.0.0.1", port: server.port, path: "/api/runs", headers: { host: "attacker.example:80" } }, (response) => {
        response.resume();
        resolvePromise(response.statusCode ?? 0);
      });
      request.on("error", reject);
      request.end();
    });
    expect(status).toBe(403);
    expect((await get("/api/runs", { method: "POST" })).status).toBe(405);
  });

  it("lists runs and gives per-call timeline numbers whose layers add up to the prompt", async () => {
    const { api } = await serve([openAiLog]);
    const runs = await api("/api/runs");
    expect(runs.body).toMatchObject({ version: 1, runs: [{ index: 0, format: "openai-log", calls: 2 }] });
    const timeline = await api("/api/runs/0/timeline");
    const calls = timeline.body.calls as Array<{ promptTokens: number; reusablePrefixTokens: number; layers: Array<{ layer: string; tokens: number; reusable: number }>; breaks: Array<{ layer: string; cause: string }> }>;
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.layers.map((layer) => layer.layer)).toEqual(["system", "tools", "history", "tail"]);
      expect(call.layers.reduce((total, layer) => total + layer.tokens, 0)).toBe(call.promptTokens);
      expect(call.layers.reduce((total, layer) => total + layer.reusable, 0)).toBe(call.reusablePrefixTokens);
    }
    expect(calls[1]!.breaks).toEqual([expect.objectContaining({ layer: "system_static", cause: "system_changed" })]);
  });

  it("gives each call that missed the cache its cause and the dollars re-billed, for the call's detail", async () => {
    // Two calls of a log whose second prompt extends the first, yet the provider served nothing from its cache.
    const system = { role: "system", content: "You are a weather assistant." };
    const ask = { role: "user", content: "Weather in Lisbon?" };
    const usage = (prompt: number, cached: number) => ({ usage: { prompt_tokens: prompt, completion_tokens: 5, prompt_tokens_details: { cached_tokens: cached } } });
    const first = { request: { model: "gpt-4o-mini", messages: [system, ask] }, response: usage(5_000, 0) };
    const second = { request: { model: "gpt-4o-mini", messages: [system, ask, { role: "assistant", content: "Let me check." }, { role: "user", content: "And Porto?" }] }, response: usage(5_040, 0) };
    const file = join(await mkdtemp(join(tmpdir(), "ctxkit-view-miss-")), "requests.jsonl");
    await writeFile(file, `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
    const { api } = await serve([file]);
    const calls = (await api("/api/runs/0/timeline")).body.calls as Array<{ miss?: { cause: { kind: string }; missedTokens: number; rebilledUsd?: number; summary: string } }>;
    expect(calls[0]!.miss).toBeUndefined();
    expect(calls[1]!.miss).toMatchObject({ cause: { kind: "provider_miss" }, missedTokens: 5_000 });
    expect(calls[1]!.miss!.rebilledUsd).toBeGreaterThan(0);
    expect(calls[1]!.miss!.summary).toMatch(/5,000 tokens re-billed \(\$0\.\d{4}\)/);
  });

  it("gives one call's rendered prompt with the reusable prefix and the first divergent token located in the text", async () => {
    const { api } = await serve([openAiLog]);
    const first = (await api("/api/runs/0/calls/0")).body as { prompt: { text: string } };
    const second = (await api("/api/runs/0/calls/1")).body as { prompt: { text: string; reusableChars: number; divergentToken: { start: number; end: number } }; usage: { counted: { reusablePrefixTokens: number } } };
    const { text, reusableChars, divergentToken } = second.prompt;
    expect(text.startsWith("<|im_start|>system\n")).toBe(true);
    // The shaded prefix is text the previous prompt had too; the marked token is where they part.
    expect(first.prompt.text.startsWith(text.slice(0, reusableChars))).toBe(true);
    expect(divergentToken.start).toBe(reusableChars);
    expect(first.prompt.text.startsWith(text.slice(0, divergentToken.end))).toBe(false);
    const wire = (await api("/api/runs/0/calls/1?view=wire")).body as { prompt: { text: string; reusableChars: number } };
    expect(JSON.parse(wire.prompt.text)).toMatchObject({ model: "gpt-4o-mini", messages: expect.any(Array) });
    expect((await api("/api/runs/0/calls/1?view=pdf")).status).toBe(400);
    expect((await api("/api/runs/0/calls/7")).status).toBe(404);
    expect((await api("/api/runs/3/timeline")).status).toBe(404);
  });

  // A recorded tool output of 30 MB made the call's JSON 31.6 MB and froze the page for 69 s while Chromium laid it out.
  it("sends a call whose prompt holds a 1 MB tool output cut to its start, the divergent part and its end, with the cut sizes", async () => {
    const system = { role: "system", content: "You are a build assistant." };
    const ask = { role: "user", content: "Show the build log." };
    const call = { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_log", arguments: "{}" } }] };
    const log = { role: "tool", tool_call_id: "c1", content: `START ${"log line\n".repeat(125_000)} END` };
    const file = join(await mkdtemp(join(tmpdir(), "ctxkit-view-huge-")), "requests.jsonl");
    await writeFile(file, `${JSON.stringify({ model: "gpt-4o", messages: [system, ask] })}\n${JSON.stringify({ model: "gpt-4o", messages: [system, ask, call, log, { role: "user", content: "Summarise it." }] })}\n`);
    const { api } = await serve([file]);
    for (const view of ["template", "wire"]) {
      const { prompt } = (await api(`/api/runs/0/calls/1?view=${view}`)).body as { prompt: { text: string; fullLength: number; omitted: Array<{ start: number; end: number; chars: number }>; divergentToken: { start: number; end: number } } };
      expect(prompt.fullLength).toBeGreaterThan(1_000_000);
      expect(prompt.text.length).toBeLessThan(500_000);
      expect(prompt.text).toContain("You are a build assistant.");
      expect(prompt.text).toContain("Summarise it.");
      expect(prompt.text).toMatch(/characters of this prompt not shown/);
      // What is shown and what was left out add up to the whole prompt.
      expect(prompt.text.length + prompt.omitted.reduce((sum, gap) => sum + gap.chars - (gap.end - gap.start), 0)).toBe(prompt.fullLength);
    }
  });

  // A recorded 20 MB response made the page (which opens on the last call) draw nothing for 33 s.
  it("sends a call's huge recorded response cut to its start and end, saying how much is left out", async () => {
    const request = { model: "gpt-4o", messages: [{ role: "user", content: "Write it all." }] };
    const response = { choices: [{ message: { role: "assistant", content: `BEGIN${"r".repeat(1_000_000)}FINISH` } }], usage: { prompt_tokens: 10, completion_tokens: 5 } };
    const file = join(await mkdtemp(join(tmpdir(), "ctxkit-view-huge-reply-")), "requests.jsonl");
    await writeFile(file, `${JSON.stringify({ request, response })}\n`);
    const { api } = await serve([file]);
    const detail = (await api("/api/runs/0/calls/0")).body as { response: { text: string } };
    expect(detail.response.text.length).toBeLessThan(510_000);
    expect(detail.response.text).toMatch(/^BEGIN/);
    expect(detail.response.text).toMatch(/FINISH$/);
    expect(detail.response.text).toContain("[… 500,011 characters not shown: ctxkit view shows the start and the end …]");
  });

  it("diffs two calls and lists findings with their calls", async () => {
    const { api } = await serve([openAiLog]);
    expect((await api("/api/runs/0/diff?to=1")).body).toMatchObject({ from: 0, to: 1, systemChanged: true, compaction: null });
    expect((await api("/api/runs/0/diff?from=0&to=9")).status).toBe(400);
    expect((await api("/api/runs/0/findings")).body).toMatchObject({ findings: [{ code: "dynamic_system_prompt", calls: [1] }] });
  });

  it("sends a diff of many large messages cut to the same million characters a call's prompt is sent whole up to", async () => {
    const ask = { role: "user", content: "Read every file." };
    const outputs = Array.from({ length: 55 }, (_, index) => ({ role: "user", content: `file ${index}: ${"line of code\n".repeat(2_000)}` }));
    const file = join(await mkdtemp(join(tmpdir(), "ctxkit-view-huge-diff-")), "requests.jsonl");
    const calls = [{ request: { model: "gpt-4o", messages: [ask] } }, { request: { model: "gpt-4o", messages: [ask, ...outputs] } }];
    await writeFile(file, calls.map((call) => JSON.stringify(call)).join("\n") + "\n");
    const { api } = await serve([file]);
    const diff = (await api("/api/runs/0/diff?from=0&to=1")).body as { appended: Array<{ text: string; truncated: number }>; textNotShown: number };
    const sent = diff.appended.reduce((sum, message) => sum + message.text.length, 0);
    expect(sent).toBe(1_000_000);
    expect(diff.appended).toHaveLength(55);
    expect(diff.textNotShown).toBe(55 * 20_000 - 1_000_000);
    expect(diff.appended.at(-1)).toMatchObject({ text: "", truncated: 26_009 });
  });

  it("shows a declared context edit as the messages it replaced and what it wrote", async () => {
    const { api } = await serve([sessionWithEdit]);
    const diff = (await api("/api/runs/0/diff?from=1&to=2")).body as { compaction: { reason: string } | null; removed: Array<{ role: string }>; replacements: Array<{ role: string }> };
    expect(diff.compaction).not.toBeNull();
    expect(diff.removed.map((message) => message.role)).toEqual(["tool"]);
    expect(diff.replacements.map((message) => message.role)).toEqual(["tool"]);
    const timeline = (await api("/api/runs/0/timeline")).body as { calls: Array<{ compaction?: { reason: string } }> };
    expect(timeline.calls.map((call) => call.compaction !== undefined)).toEqual([false, false, true]);
  });

  it("sends an update event when the session file grows, and the timeline then has the new calls", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-view-growing-"));
    const file = join(directory, "session.jsonl");
    const lines = (await readFile(sessionWithEdit, "utf8")).split("\n");
    await writeFile(file, `${lines.slice(0, 7).join("\n")}\n`);
    const { server, api } = await serve([file], { pollMilliseconds: 50 });
    expect(((await api("/api/runs/0/timeline")).body.calls as unknown[]).length).toBe(1);
    const controller = new AbortController();
    const events = await fetch(`http://127.0.0.1:${server.port}/api/events?token=${server.token}`, { signal: controller.signal });
    const reader = events.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    while (!received.includes("\n\n")) received += decoder.decode((await reader.read()).value);
    expect(received).toContain('event: update\ndata: {"version":1}');
    await appendFile(file, `${lines.slice(7).join("\n")}`);
    while (!received.includes('"version":2')) received += decoder.decode((await reader.read()).value);
    controller.abort();
    expect(((await api("/api/runs/0/timeline")).body.calls as unknown[]).length).toBe(3);
  });

  it("serves the built page's files and nothing outside them", async () => {
    const { server, get } = await serve([openAiLog]);
    expect(await (await get(`/?token=${server.token}`)).text()).toContain("<title>viewer</title>");
    expect((await get(`/..%2f..%2fpackage.json?token=${server.token}`)).status).toBe(404);
    expect((await get(`/missing.js?token=${server.token}`)).status).toBe(404);
  });

  it("starts exact counts asked for later only once the first timeline was served", async () => {
    const assets = await mkdtemp(join(tmpdir(), "ctxkit-view-assets-"));
    const source = await createViewSource([openAiLog], { exactCounts: "background", exactCountsStart: "when-asked" });
    const server = await startViewServer({ source, assetsDirectory: assets, auth: false, pollMilliseconds: 50 });
    servers.push(server);
    const timeline = async () => (await (await fetch(`http://127.0.0.1:${server.port}/api/runs/0/timeline`)).json()) as { run: { tokenizer: string } };
    try {
      await fetch(`http://127.0.0.1:${server.port}/api/runs`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(source.runs()[0]!.analyzed.tokenizer.exact).toBe(false);
      expect((await timeline()).run.tokenizer).not.toMatch(/Qwen3/);
      let tokenizer = "";
      for (let attempt = 0; attempt < 600 && !/Qwen3/.test(tokenizer); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        tokenizer = (await timeline()).run.tokenizer;
      }
      expect(tokenizer).toMatch(/Qwen3/);
    } finally {
      await source.close();
    }
  }, 120_000);

  it("names the page's first API requests, with the token, as preloads in its HTML", async () => {
    const assets = await mkdtemp(join(tmpdir(), "ctxkit-view-assets-"));
    await writeFile(join(assets, "index.html"), "<!doctype html><html><head><title>viewer</title></head><body></body></html>");
    const server = await startViewServer({ source: await createViewSource([openAiLog]), assetsDirectory: assets });
    servers.push(server);
    const html = await (await fetch(`http://127.0.0.1:${server.port}/?token=${server.token}`)).text();
    for (const path of ["runs", "runs/0/timeline", "runs/0/findings"]) {
      expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="./api/${path}?token=${server.token}">`);
    }
    // The call the page opens on (the last), as the page's script asks for it.
    const last = (await createViewSource([openAiLog])).runs()[0]!.imported.calls.length - 1;
    expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="./api/runs/0/calls/${last}?view=template&amp;token=${server.token}">`);
    expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="./api/runs/0/diff?from=${last - 1}&amp;to=${last}&amp;token=${server.token}">`);
    expect(html.indexOf("rel=\"preload\"")).toBeLessThan(html.indexOf("</head>"));
  });
});
