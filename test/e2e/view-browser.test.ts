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
    await page.locator(`h3:text("Undeclared cache breaks (${undeclared.length})")`).waitFor();
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
});
