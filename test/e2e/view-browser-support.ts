import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { requireEndToEnd } from "./end-to-end-only.js";

/** Debian's chromium (apt-get install chromium); no browser is downloaded. */
export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
export const SCREENSHOTS = resolve("bench-results/view");

/** A headless chromium with a fresh profile, the flags that keep it off the network. */
export async function launchBrowser(colorScheme: "light" | "dark" = "light"): Promise<BrowserContext> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const profile = await mkdtemp(join(tmpdir(), "ctxkit-view-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1400, height: 1000 },
    colorScheme,
    timeout: 120_000,
  });
  context.setDefaultTimeout(90_000);
  return context;
}

export interface RunningViewer {
  url: string;
  /** The URL without the token. */
  base: string;
  stop(): Promise<void>;
}

/** Starts the built `ctxkit view … --port 0 --no-open` and reads the URL from its first line. */
export function startViewer(args: string[], cwd: string): Promise<RunningViewer> {
  requireEndToEnd("startViewer");
  const child: ChildProcess = spawn(process.execPath, [resolve("bin/ctxkit.js"), "view", ...args, "--port", "0", "--no-open"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const stop = () =>
    new Promise<void>((resolvePromise) => {
      if (child.exitCode !== null) return resolvePromise();
      child.once("close", () => resolvePromise());
      child.kill("SIGTERM");
    });
  return new Promise((resolvePromise, reject) => {
    // Importing and analysing a big transcript takes a while on a loaded machine.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`ctxkit view did not print its URL.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, 120_000);
    child.stderr!.on("data", (data: Buffer) => (stderr += data.toString()));
    child.stdout!.on("data", (data: Buffer) => {
      stdout += data.toString();
      const newline = stdout.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      const url = stdout.slice(0, newline);
      resolvePromise({ url, base: url.replace(/\?.*$/, ""), stop });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`ctxkit view exited with ${code} before printing its URL.\nstderr: ${stderr}`));
    });
  });
}

/** GETs an API path of a running viewer, with its token. */
export async function viewerApi<T>(viewer: RunningViewer, path: string): Promise<T> {
  const token = new URL(viewer.url).searchParams.get("token");
  const response = await fetch(`${viewer.base}${path}${token === null ? "" : `${path.includes("?") ? "&" : "?"}token=${token}`}`);
  return (await response.json()) as T;
}
