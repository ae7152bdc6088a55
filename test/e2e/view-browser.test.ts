import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile, appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchBrowser, SCREENSHOTS, startViewer, viewerApi, type RunningViewer } from "./view-browser-support.js";
import { writeViewerSession } from "./viewer-session.js";

// Real recorded runs from the shared corpus (see ../shared/corpus/README.md): a mini-swe-agent run
// of SWE-bench with Gemini, and τ-bench airline dialogues of gpt-4o (sierra-research/tau-bench).
const sweRun = resolve("../shared/corpus/swe-gemini/astropy__astropy-12907.traj.json");
const tauBench = resolve("../shared/corpus/tau-bench/trajectories/gpt-4o-airline.json");

interface TimelineBody {
  calls: Array<{ index: number; breaks: Array<{ layer: string; cause: string; declared: boolean }>; compaction?: { reason: string } }>;
}

const calls = (page: Page) => page.locator("[data-call-index]");

/** Waits (without sleeping) until the timeline has `count` calls drawn. */
async function waitForCalls(page: Page, count: number): Promise<void> {
  // A function, not a string: the page's Content-Security-Policy forbids evaluating strings.
  // The run summary and the timeline come from the same response and are drawn in one render.
  await page.locator(`[data-calls-total="${count}"]`).waitFor({ timeout: 90_000 });
  await page.locator(`[data-call-index="${count - 1}"]`).waitFor({ timeout: 90_000 });
  expect(await calls(page).count()).toBe(count);
}

/** Opens the page and waits until the timeline has `count` calls drawn. */
async function open(page: Page, viewer: RunningViewer, count: number): Promise<void> {
  await page.goto(viewer.url);
  await waitForCalls(page, count);
}

describe.skipIf(!hasChromium)("ctxkit view in a real browser (chromium)", () => {
  let browser: BrowserContext;
  const viewers: RunningViewer[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await Promise.all(viewers.map((viewer) => viewer.stop()));
    await browser?.close();
  });
  const start = async (args: string[], cwd: string) => {
    const viewer = await startViewer(args, cwd);
    viewers.push(viewer);
    return viewer;
  };

  it("requires the token: the bare URL is refused, the printed one opens the page", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-view-auth-"));
    const { id } = await writeViewerSession(workspace);
    const viewer = await start([id], workspace);
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
    const page = await browser.newPage();
    const refused = await page.goto(viewer.base);
    expect(refused!.status()).toBe(401);
    expect(await page.textContent("body")).toContain("needs the token");
    const apiRefused = await page.goto(`${viewer.base}api/runs`);
    expect(apiRefused!.status()).toBe(401);
    const opened = await page.goto(viewer.url);
    expect(opened!.status()).toBe(200);
    await page.waitForSelector("[data-call-index]");
    await page.close();
  }, 240_000);

  it("shows a ctxkit session with compactions and a status bar: markers, tooltips, the diff after a compaction", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-view-session-"));
    const { id } = await writeViewerSession(workspace);
    const viewer = await start([id], workspace);
    const timeline = await viewerApi<TimelineBody>(viewer, "api/runs/0/timeline");
    const compacted = timeline.calls.filter((call) => call.compaction !== undefined);
    expect(compacted.length).toBeGreaterThan(0);
    const page = await browser.newPage();
    await open(page, viewer, timeline.calls.length);

    expect(await page.locator(".timeline-chart .compaction-marker").count()).toBe(compacted.length);
    expect(await page.locator(".timeline-chart .break-marker").count()).toBe(timeline.calls.filter((call) => call.breaks.length > 0).length);
    const target = compacted[0]!;
    const firstBreak = target.breaks[0]!;
    const marker = page.locator(`[data-call-index="${target.index}"] .break-marker`);
    expect(await marker.getAttribute("data-break-layer")).toBe(firstBreak.layer);
    expect(await marker.getAttribute("data-break-cause")).toBe(firstBreak.cause);

    await page.hover(`[data-call-index="${target.index}"]`);
    const tooltip = page.locator("[role=tooltip]");
    await tooltip.waitFor();
    const tip = (await tooltip.textContent())!;
    expect(tip).toContain(`Call ${target.index}`);
    expect(tip).toContain(`Cache break (declared) in ${firstBreak.layer}: ${firstBreak.cause.replace(/_/g, " ")}`);
    expect(tip).toContain("Compaction / context edit: ctxkit compression");

    await page.click(`[data-call-index="${target.index}"]`);
    await page.waitForSelector(`#call-heading:text("Call ${target.index}")`);
    const diff = page.locator(`.diff-body[data-diff-to="${target.index}"]`);
    await diff.waitFor();
    await diff.locator("[data-compaction-diff]").waitFor();
    expect(await diff.locator(".messages.removed > li").count()).toBeGreaterThan(0);
    expect(await diff.locator(".messages.replacements > li").count()).toBeGreaterThan(0);
    expect(await diff.locator(".messages.replacements").textContent()).toContain("[COMPRESSED]");

    await page.waitForSelector(".status-bar");
    expect(await page.textContent(".status-bar")).toContain("<agent_status>");
    await page.waitForSelector("[data-divergent-token]");
    await page.screenshot({ path: join(SCREENSHOTS, "session-compaction.png") });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(SCREENSHOTS, "session-compaction-dark.png") });
    await page.close();
  }, 240_000);

  it.skipIf(!existsSync(sweRun))("shows a corpus SWE run: every call drawn, keyboard navigation, the first divergent token marked", async () => {
    const viewer = await start([sweRun], tmpdir());
    const page = await browser.newPage();
    await open(page, viewer, 20);
    await page.focus('[data-call-index="19"]');
    await page.keyboard.press("Home");
    for (let step = 0; step < 3; step++) await page.keyboard.press("ArrowRight");
    await page.waitForSelector('[data-call-index="3"][aria-pressed="true"]');
    await page.waitForSelector('#call-heading:text("Call 3")');
    const mark = page.locator("[data-divergent-token]");
    await mark.waitFor();
    const detail = await viewerApi<{ prompt: { text: string; reusableChars: number; divergentToken: { start: number; end: number } } }>(viewer, "api/runs/0/calls/3");
    expect(await mark.textContent()).toBe(detail.prompt.text.slice(detail.prompt.divergentToken.start, detail.prompt.divergentToken.end));
    const previous = await viewerApi<{ prompt: { text: string } }>(viewer, "api/runs/0/calls/2");
    const shaded = (await page.textContent(".reusable-prefix"))!;
    expect(shaded.length).toBe(detail.prompt.reusableChars);
    expect(previous.prompt.text.startsWith(shaded)).toBe(true);
    expect(await page.locator(".prompt-text .special-token").first().textContent()).toBe("<|im_start|>");
    await page.hover('[data-call-index="3"]');
    await page.locator("[role=tooltip]").waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "swe-run.png") });
    // A finding links to the calls it shows on: its first call button selects that call.
    const finding = page.locator('[data-finding="tool_output_in_user_messages"]');
    const linked = Number(await finding.locator("[data-finding-call]").first().getAttribute("data-finding-call"));
    await finding.locator("[data-finding-call]").first().click();
    await page.waitForSelector(`[data-call-index="${linked}"][aria-pressed="true"]`);
    await page.waitForSelector(`#call-heading:text("Call ${linked}")`);
    await page.click('input[value="wire"]');
    await page.locator(".prompt-text", { hasText: '"messages":[' }).waitFor();
    await page.close();
  }, 240_000);

  it.skipIf(!existsSync(tauBench))("shows a τ-bench dialogue and switches between the file's runs", async () => {
    const viewer = await start([tauBench], tmpdir());
    const runs = await viewerApi<{ runs: Array<{ index: number; calls: number }> }>(viewer, "api/runs");
    expect(runs.runs.length).toBeGreaterThan(1);
    const page = await browser.newPage();
    await open(page, viewer, runs.runs[0]!.calls);
    const other = runs.runs.find((run) => run.calls !== runs.runs[0]!.calls)!;
    await page.selectOption(".run-picker select", String(other.index));
    await waitForCalls(page, other.calls);
    await page.waitForSelector(".response");
    // Every undeclared break of the run is listed with the findings, linked to its call.
    const timeline = await viewerApi<TimelineBody>(viewer, `api/runs/${other.index}/timeline`);
    const undeclared = timeline.calls.flatMap((call) => call.breaks.filter((item) => !item.declared).map(() => call.index));
    const anyBreak = timeline.calls.some((call) => call.breaks.length > 0);
    await page.locator(anyBreak ? `h3:text("Undeclared cache breaks (${undeclared.length})")` : "[data-no-breaks]").waitFor();
    expect(await page.locator("[data-undeclared-break]").count()).toBe(Math.min(200, undeclared.length));
    if (undeclared.length > 0) {
      await page.locator("[data-break-call]").first().click();
      await page.waitForSelector(`[data-call-index="${undeclared[0]}"][aria-pressed="true"]`);
    }
    await page.screenshot({ path: join(SCREENSHOTS, "tau-bench.png") });
    await page.close();
  }, 240_000);

  it("follows a session that grows while the page is open", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-view-growing-"));
    const { file } = await writeViewerSession(workspace);
    const lines = (await readFile(file, "utf8")).split("\n");
    const requestLines = lines.flatMap((line, index) => (line.startsWith('{"type":"request"') ? [index] : []));
    const growing = join(workspace, "growing.jsonl");
    // Up to (not including) the third request record: two calls so far.
    await writeFile(growing, `${lines.slice(0, requestLines[2]!).join("\n")}\n`);
    const viewer = await start([growing], workspace);
    const page = await browser.newPage();
    await open(page, viewer, 2);
    await appendFile(growing, lines.slice(requestLines[2]!).join("\n"));
    await waitForCalls(page, requestLines.length);
    // The page follows the newest call while the last one was selected.
    await page.waitForSelector(`[data-call-index="${requestLines.length - 1}"][aria-pressed="true"]`);
    expect(await calls(page).count()).toBe(requestLines.length);
    await page.close();
  }, 240_000);
  it("opens on the last call without waiting for the timeline first: its prompt is preloaded with the page", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-view-preload-"));
    const { id } = await writeViewerSession(workspace);
    const viewer = await start([id], workspace);
    const timeline = await viewerApi<TimelineBody>(viewer, "api/runs/0/timeline");
    const last = timeline.calls.length - 1;
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname + new URL(request.url()).search.replace(/[?&]token=[^&]*/, "")));
    await page.goto(viewer.url);
    await page.locator(".call-body").waitFor();
    expect(await page.textContent("#call-heading")).toBe(`Call ${last}`);
    const callPrompt = `/api/runs/0/calls/${last}?view=template`;
    // Asked for once, by the HTML's preload, before the page's script ran (the script opens the event stream first thing).
    expect(requested.filter((path) => path === callPrompt)).toHaveLength(1);
    expect(requested.indexOf(callPrompt)).toBeGreaterThanOrEqual(0);
    expect(requested.indexOf(callPrompt)).toBeLessThan(requested.indexOf("/api/events"));
    // Its diff to the call before, likewise.
    const callDiff = `/api/runs/0/diff?from=${last - 1}&to=${last}`;
    await page.locator(`.diff-body[data-diff-to="${last}"]`).waitFor();
    expect(requested.filter((path) => path === callDiff)).toHaveLength(1);
    expect(requested.indexOf(callDiff)).toBeLessThan(requested.indexOf("/api/events"));
    expect(await page.locator(".loading").count()).toBe(0);
    await page.close();
  }, 240_000);

  // A call whose prompt held a 30 MB tool output froze the page for 69 s: it now comes cut, and the
  // page shows each cut as a marker apart from the prompt's own text.
  it("shows a prompt with a huge tool output cut, each cut a marked line, and the wire view's full length", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-view-huge-"));
    const system = { role: "system", content: "You are a build assistant." };
    const ask = { role: "user", content: "Show the build log." };
    const toolCall = { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_log", arguments: "{}" } }] };
    const log = { role: "tool", tool_call_id: "c1", content: `START ${"log line\n".repeat(250_000)} END` };
    const file = join(workspace, "requests.jsonl");
    await writeFile(file, `${JSON.stringify({ model: "gpt-4o", messages: [system, ask] })}\n${JSON.stringify({ model: "gpt-4o", messages: [system, ask, toolCall, log, { role: "user", content: "Summarise it." }] })}\n`);
    const viewer = await start([file, "--tokenizer", "estimate"], workspace);
    const page = await browser.newPage();
    await open(page, viewer, 2);
    const marker = page.locator("pre.prompt-text .omitted-text").first();
    await marker.waitFor();
    expect(Number(await marker.getAttribute("data-omitted-chars"))).toBeGreaterThan(1_000_000);
    expect(await marker.textContent()).toMatch(/characters of this prompt not shown/);
    expect(await page.textContent("pre.prompt-text")).toContain("Summarise it.");
    await page.locator('input[value="wire"]').check();
    await page.getByText(/characters; shaded: bytes shared/).waitFor();
    const wireLength = Number((await page.getByText(/characters; shaded: bytes shared/).textContent())!.split(" ")[0]!.replace(/,/g, ""));
    expect(wireLength).toBeGreaterThan(2_000_000);
    await page.close();
  }, 240_000);

  it("says 'No cache breaks' on a run that has none, not 'Undeclared cache breaks (0)'", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-view-plain-"));
    const { id } = await writeViewerSession(workspace, { plain: true });
    const viewer = await start([id], workspace);
    const timeline = await viewerApi<TimelineBody>(viewer, "api/runs/0/timeline");
    expect(timeline.calls.length).toBeGreaterThan(2);
    expect(timeline.calls.every((call) => call.breaks.length === 0)).toBe(true);
    const page = await browser.newPage();
    await open(page, viewer, timeline.calls.length);
    const none = page.locator("[data-no-breaks]");
    await none.waitFor();
    expect(await none.textContent()).toBe("No cache breaks: every call's prompt extends the one before.");
    const findings = (await page.textContent(".findings"))!;
    expect(findings).not.toContain("Undeclared cache breaks");
    expect(findings).not.toContain("every break the run has was declared");
    await page.close();
  }, 240_000);

  it("gives each meaning its own colour-blind-safe colour and a text label, in light and dark mode", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-view-palette-"));
    const { id } = await writeViewerSession(workspace);
    const viewer = await start([id], workspace);
    const timeline = await viewerApi<TimelineBody>(viewer, "api/runs/0/timeline");
    const page = await browser.newPage();
    await open(page, viewer, timeline.calls.length);
    // Each meaning the page draws in colour: its legend entry and its colour variable.
    const meanings = {
      "layer-system": "--system", "layer-tools": "--tools", "layer-history": "--history", "layer-tail": "--tail",
      break: "--break", declared: "--declared", compaction: "--compaction",
      "cost-uncached": "--cost-uncached", "cost-cached": "--cost-cached", "cost-output": "--cost-output", special: "--special",
    };
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const labels = await page.$$eval(".legend li[data-legend]", (items) => Object.fromEntries(items.map((item) => [item.getAttribute("data-legend"), item.textContent!.trim()])));
      const colours = await page.evaluate((names) => {
        // Runs in the page (the test's own types have no DOM): a probe element resolves each variable.
        const browser = globalThis as unknown as BrowserGlobals;
        const probe = browser.document.createElement("span");
        browser.document.body.append(probe);
        const resolved: Record<string, string> = {};
        for (const [meaning, variable] of Object.entries(names)) {
          probe.style.color = `var(${variable})`;
          resolved[meaning] = browser.getComputedStyle(probe).color;
        }
        probe.remove();
        return resolved;
      }, meanings);
      for (const meaning of Object.keys(meanings)) expect(labels[meaning], `${scheme}: legend label of ${meaning}`).toMatch(/[a-z]{4}/);
      // No two meanings share a colour, and no two look alike to people with protanopia,
      // deuteranopia or tritanopia (simulated; CIELAB distance).
      for (const vision of Object.keys(colourVisions) as Array<keyof typeof colourVisions>) {
        const entries = Object.entries(colours).map(([meaning, colour]) => [meaning, toLab(simulate(parseRgb(colour), vision))] as const);
        for (const [index, [meaning, lab]] of entries.entries()) {
          for (const [other, otherLab] of entries.slice(index + 1)) {
            expect(Math.hypot(lab[0]! - otherLab[0]!, lab[1]! - otherLab[1]!, lab[2]! - otherLab[2]!), `${scheme}, ${vision}: ${meaning} vs ${other} (${colours[meaning]}, ${colours[other]})`).toBeGreaterThan(12);
          }
        }
      }
      // Not colour alone: a declared break is dashed, a compaction sits in the lower band of the mark row.
      const declared = page.locator(".timeline-chart rect.break-marker.declared").first();
      expect(await declared.evaluate((element) => (globalThis as unknown as BrowserGlobals).getComputedStyle(element).strokeDasharray)).not.toBe("none");
      const compaction = page.locator(".timeline-chart rect.compaction-marker").first();
      expect(Number(await compaction.getAttribute("y"))).toBeGreaterThan(Number(await declared.getAttribute("y")));
      await page.screenshot({ path: join(SCREENSHOTS, `palette-${scheme}.png`) });
    }
    await page.close();
  }, 240_000);
});

// Colour vision deficiencies as linear-RGB matrices (Machado, Oliveira and Fernandes 2009, severity 1).
const colourVisions = {
  normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};

function parseRgb(colour: string): number[] {
  const [r, g, b] = colour.match(/[\d.]+/g)!.map(Number);
  return [r!, g!, b!];
}

function simulate(rgb: number[], vision: keyof typeof colourVisions): number[] {
  const linear = rgb.map((value) => (value / 255 <= 0.04045 ? value / 255 / 12.92 : ((value / 255 + 0.055) / 1.055) ** 2.4));
  return colourVisions[vision].map((row) => Math.min(1, Math.max(0, row[0]! * linear[0]! + row[1]! * linear[1]! + row[2]! * linear[2]!)));
}

function toLab([r, g, b]: number[]): number[] {
  const x = (0.4124 * r! + 0.3576 * g! + 0.1805 * b!) / 0.95047;
  const y = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  const z = (0.0193 * r! + 0.1192 * g! + 0.9505 * b!) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** What the page-side callbacks use of the browser (the test's types have no DOM library). */
interface BrowserGlobals {
  document: { createElement(tag: string): ProbeElement; body: { append(element: ProbeElement): void } };
  getComputedStyle(element: unknown): { color: string; strokeDasharray: string };
}

interface ProbeElement {
  style: { color: string };
  remove(): void;
}
