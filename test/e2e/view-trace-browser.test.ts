import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAIModelServer } from "../../src/testing.js";
import type { AgentEvent } from "../../src/types/index.js";
import { startOtlpReceiver } from "../otlp-receiver.js";
import { runCli } from "../run-cli.js";
import { hasChromium, launchBrowser, SCREENSHOTS, startViewer, viewerApi, type RunningViewer } from "./view-browser-support.js";

interface TracesBody {
  traces: Array<{ spans: Array<{ spanId: string; name: string; parentSpanId: string; call?: { run: number; call: number }; attributes: Record<string, unknown> }> }>;
}

/**
 * A traced `ctxkit run` (a sub-agent, a confirmed write, three reads), its spans written as the
 * collector's file exporter writes them: each OTLP/JSON export request on one line.
 */
async function tracedRun(): Promise<{ cwd: string; sessionId: string; calls: number; traceFile: string }> {
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-view-trace-"));
  for (let index = 0; index < 3; index++) await writeFile(join(cwd, `notes-${index}.txt`), `note ${index}: the fox\n`);
  let step = 0;
  const model = await startOpenAIModelServer((body: { messages: Array<{ role: string; content?: unknown }> }) => {
    const system = String(body.messages[0]?.content ?? "");
    if (system.includes("You are explore")) return body.messages.some((message) => message.role === "tool") ? "notes-0.txt." : { toolCalls: [{ name: "grep", arguments: { pattern: "fox" } }] };
    const current = step++;
    if (current === 0) return { toolCalls: [{ name: "task", arguments: { agent: "explore", description: "find", prompt: "Where is the fox?" } }] };
    if (current === 1) return { toolCalls: [{ name: "write_file", arguments: { path: "out.txt", content: "fox\n" } }] };
    return current - 2 < 3 ? { toolCalls: [{ name: "read_file", arguments: { path: `notes-${current - 2}.txt` } }] } : "Done.";
  });
  const receiver = await startOtlpReceiver();
  try {
    const run = await runCli(["run", "--base-url", model.baseURL, "--model", "gpt-4.1", "--yes", "--trust-workspace", "--json", "Find the fox."], {
      cwd,
      env: { HOME: cwd, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_SERVICE_NAME: "ctxkit" },
    });
    expect(run.code).toBe(0);
    const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as AgentEvent);
    const end = events.find((event): event is Extract<AgentEvent, { type: "run_end" }> => event.type === "run_end")!;
    const traceFile = join(cwd, "trace.jsonl");
    await writeFile(traceFile, `${receiver.jsonLines.join("\n")}\n`);
    return { cwd, sessionId: end.sessionId!, calls: end.iterations, traceFile };
  } finally {
    await model.close();
    await receiver.close();
  }
}

describe.skipIf(!hasChromium)("ctxkit view trace.json in a real browser (chromium)", () => {
  let browser: BrowserContext;
  const viewers: RunningViewer[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await Promise.all(viewers.map((viewer) => viewer.stop()));
    await browser?.close();
  });

  it("shows the span tree with timings and attributes, and links the session's calls to their chat spans", async () => {
    const { cwd, sessionId, calls, traceFile } = await tracedRun();
    const viewer = await startViewer([sessionId, traceFile], cwd);
    viewers.push(viewer);
    const body = await viewerApi<TracesBody>(viewer, "api/traces");
    const spans = body.traces[0]!.spans;
    const linked = spans.filter((span) => span.call !== undefined);
    expect(linked.map((span) => span.call!.call)).toEqual(Array.from({ length: calls }, (_, index) => index));
    expect(linked.every((span) => span.attributes["gen_ai.conversation.id"] === sessionId)).toBe(true);

    const page = await browser.newPage();
    await page.goto(viewer.url);
    await page.locator(`[data-call-index="${calls - 1}"]`).waitFor();
    const rows = page.locator(".traces [data-span-id]");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(spans.length);
    // The tree: the run at depth 0, its calls and tools at 1, the sub-agent under the task tool at 2, its spans at 3.
    expect(await page.locator('.traces [data-span-name="invoke_agent ctxkit"]').getAttribute("data-depth")).toBe("0");
    expect(await page.locator('.traces [data-span-name="execute_tool task"]').getAttribute("data-depth")).toBe("1");
    expect(await page.locator('.traces [data-span-name="invoke_agent explore"]').getAttribute("data-depth")).toBe("2");
    expect(await page.locator('.traces [data-span-name="execute_tool grep"]').getAttribute("data-depth")).toBe("3");
    const durations = await page.locator(".traces [data-duration-ms]").evaluateAll((elements) => elements.map((element) => Number(element.getAttribute("data-duration-ms"))));
    expect(durations.every((value) => Number.isFinite(value) && value >= 0)).toBe(true);
    expect(await page.locator(".traces .span-summary").first().textContent()).toMatch(/in \d+ \(cached \d+\) out \d+/);

    // A chat span's link selects its call in the timeline; the selected call's span is marked.
    await page.locator('.traces [data-span-call="2"]').click();
    await page.locator('[data-call-index="2"].selected, [data-call-index="2"] .selected, .call.selected[data-call-index="2"]').first().waitFor();
    await page.locator('.traces .span-linked [data-span-call="2"]').waitFor();

    // A span opens to its attributes: gen_ai.* and ctxkit.* with their values.
    const chat = page.locator('.traces [data-span-name="chat gpt-4.1"]').first();
    await chat.locator(".span-name").click();
    const table = chat.locator("[data-span-attributes]");
    await table.waitFor();
    expect(await table.locator('[data-attribute="gen_ai.request.model"] td').textContent()).toBe("gpt-4.1");
    expect(await table.locator('[data-attribute="gen_ai.response.model"] td').textContent()).toBe("scripted");
    expect(await table.locator('[data-attribute="gen_ai.conversation.id"] td').textContent()).toBe(sessionId);
    expect(await table.locator('[data-attribute="ctxkit.prefix.reusable_tokens"] td').textContent()).toBe("0");
    await page.screenshot({ path: join(SCREENSHOTS, "view-trace-with-session.png"), fullPage: true });
    await page.close();
  }, 240_000);

  it("opens a trace file alone, and refuses a file that only looks like one with a clear error", async () => {
    const { cwd, traceFile } = await tracedRun();
    const viewer = await startViewer([traceFile], cwd);
    viewers.push(viewer);
    const page = await browser.newPage();
    await page.goto(viewer.url);
    await page.locator('.traces [data-span-name="invoke_agent ctxkit"]').waitFor();
    expect(await page.locator("[data-call-index]").count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, "view-trace-alone.png"), fullPage: true });
    await page.close();

    const fake = join(cwd, "fake.json");
    await writeFile(fake, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "zz", spanId: "1", name: "x" }] }] }] }));
    await expect(startViewer([fake], cwd)).rejects.toThrow(/no span could be read; an OTLP JSON trace export \(resourceSpans → scopeSpans → spans\) was expected/);
  }, 240_000);
});
