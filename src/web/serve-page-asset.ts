import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where `npm run build` puts the page (Vite's output). Two levels up from this file is the package
 * root both from src/web (tests) and from dist/web (the installed package).
 */
export const DEFAULT_ASSETS_DIRECTORY = fileURLToPath(new URL("../../dist/web/page/", import.meta.url));

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
};

/** Reads one file of the built page, refusing any path that leaves its directory; undefined when absent. */
export async function readPageAsset(directory: string, path: string): Promise<{ body: Buffer; contentType: string } | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, "");
  const file = join(directory, relative);
  if (relative.startsWith("..") || !file.startsWith(normalize(directory).replace(/[/\\]?$/, sep))) return undefined;
  try {
    return { body: await readFile(file), contentType: contentTypes[extname(file)] ?? "application/octet-stream" };
  } catch {
    return undefined;
  }
}
