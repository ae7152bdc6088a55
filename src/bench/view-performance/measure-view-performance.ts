import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** One opening of a large run in `ctxkit view`, in milliseconds from the command's start. */
export interface ViewTiming {
  /** The command printed its URL: files read, imported and analysed, server listening. */
  serverReadyMs: number;
  /** GET of the timeline JSON (every call's numbers), and its size. */
  timelineApiMs: number;
  timelineBytes: number;
  /** GET of one call's prompt text (the last call, the largest), and its size. */
  callApiMs: number;
  callBytes: number;
  /** In chromium: from navigation until every call's column is drawn (undefined without a browser). */
  pageTimelineMs?: number;
  /** In chromium: from navigation until the selected (last) call's prompt is shown with its divergent token. */
  pagePromptMs?: number;
  /** In chromium: from a click on the middle call until its prompt is shown. */
  selectCallMs?: number;
  /** What a user waits for: from the command's start (the page opened as the URL is printed) until every column is drawn. */
  openMs?: number;
  /** From the command's start until the timeline carries the exact counts (computed in the background after the page opens). */
  exactCountsMs?: number;
}

const bin = fileURLToPath(new URL("../../../bin/ctxkit.js", import.meta.url));

/**
 * Runs the built `ctxkit view <file> --port 0 --no-open` and times it as a user meets it: with a
 * chromium at `chromiumPath` already running, the page is opened the moment the URL is printed,
 * and the opening is timed from the command's start until every column is drawn; then a call's
 * prompt and a click on another call. The JSON routes are timed after the page (a script reading
 * the API first would start the background counting before the page is drawn, which no user
 * does). playwright-core is a development dependency; without it the page timings are left out.
 */
export async function measureViewPerformance(file: string, calls: number, options: { chromiumPath?: string; tokenizer: string }): Promise<ViewTiming> {
  const browser = options.chromiumPath !== undefined && existsSync(options.chromiumPath) ? await launchPage(options.chromiumPath) : undefined;
  const started = performance.now();
  const child = spawn(process.execPath, [bin, "view", file, "--port", "0", "--no-open", "--tokenizer", options.tokenizer], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    const url = await firstLine(child.stdout!);
    const serverReadyMs = performance.now() - started;
    const page = browser === undefined ? undefined : await measurePage(browser.page, url, calls, options.tokenizer);
    const base = url.replace(/\?.*$/, "");
    const token = new URL(url).searchParams.get("token") ?? "";
    const timed = async (path: string) => {
      const before = performance.now();
      const response = await fetch(`${base}${path}${path.includes("?") ? "&" : "?"}token=${token}`);
      const body = await response.text();
      return { ms: performance.now() - before, bytes: Buffer.byteLength(body) };
    };
    const timeline = await timed("api/runs/0/timeline");
    const call = await timed(`api/runs/0/calls/${calls - 1}`);
    const timing: ViewTiming = { serverReadyMs, timelineApiMs: timeline.ms, timelineBytes: timeline.bytes, callApiMs: call.ms, callBytes: call.bytes };
    if (page !== undefined) Object.assign(timing, page.timings, { openMs: page.drawnAt - started });
    if (options.tokenizer === "qwen3") {
      for (let attempt = 0; attempt < 1200; attempt++) {
        const response = await fetch(`${base}api/runs/0/timeline?token=${token}`);
        const { run } = (await response.json()) as { run: { tokenizer: string } };
        if (run.tokenizer.includes("exact")) {
          timing.exactCountsMs = performance.now() - started;
          break;
        }
        await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
      }
    }
    return timing;
  } finally {
    await stop(child);
    await browser?.close();
  }
}

/** Stops the viewer and waits for it to exit, so the next opening does not share the machine with it. */
async function stop(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolvePromise) => child.once("exit", () => resolvePromise()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A chromium page, started before the command so that its own start is not counted. */
async function launchPage(chromiumPath: string): Promise<{ page: import("playwright-core").Page; close: () => Promise<void> } | undefined> {
  let playwright: typeof import("playwright-core");
  try {
    playwright = await import("playwright-core");
  } catch {
    return undefined;
  }
  const context = await playwright.chromium.launchPersistentContext(await mkdtemp(join(tmpdir(), "ctxkit-view-bench-")), {
    executablePath: chromiumPath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1400, height: 1000 },
  });
  return { page: await context.newPage(), close: () => context.close() };
}

/** The page's timings, and the moment (performance.now()) every column was drawn. */
async function measurePage(page: import("playwright-core").Page, url: string, calls: number, tokenizer: string): Promise<{ timings: Pick<ViewTiming, "pageTimelineMs" | "pagePromptMs" | "selectCallMs">; drawnAt: number }> {
  const navigated = performance.now();
  await page.goto(url);
  // The last column is drawn with all the others in one render (the page's CSP forbids string predicates).
  await page.locator(`[data-call-index="${calls - 1}"]`).waitFor({ timeout: 120_000 });
  const drawnAt = performance.now();
  await page.waitForSelector("[data-divergent-token], .prompt-text", { timeout: 120_000 });
  const pagePromptMs = performance.now() - navigated;
  const middle = Math.floor(calls / 2);
  const clicked = performance.now();
  await page.click(`[data-call-index="${middle}"]`);
  await page.waitForSelector(`#call-heading:text("Call ${middle}")`);
  await page.waitForSelector(".prompt-text", { timeout: 120_000 });
  const selectCallMs = performance.now() - clicked;
  await page.screenshot({ path: join("bench-results", "view", `large-run-${calls}-${tokenizer}.png`) }).catch(() => undefined);
  return { timings: { pageTimelineMs: drawnAt - navigated, pagePromptMs, selectCallMs }, drawnAt };
}

function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let text = "";
    stream.on("data", (data: Buffer) => {
      text += data.toString();
      const newline = text.indexOf("\n");
      if (newline >= 0) resolvePromise(text.slice(0, newline));
    });
    stream.on("end", () => reject(new Error(`ctxkit view ended without printing its URL: ${text}`)));
  });
}
