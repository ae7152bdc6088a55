// Which chunks of earlier builds scripts/bundle-cli.mjs removes from dist/cli-bundle/. Each build
// writes its chunks under new hashed names beside the old ones; kept forever, a working clone that
// rebuilds often collected hundreds (345 files after a day), and a V8 code cache for each.
// A process keeps running from the bundle it started with: a long `ctxkit chat` requires a
// command's chunk when first used, maybe after a rebuild. So a build keeps the generation it
// replaces (the chunks the entries it found still require) and any chunk written in the last few
// minutes (a build running beside this one, or starts just before a burst of rebuilds); older
// generations go. Only files the bundling names are touched: `<name>-<8-character hash>.cjs`.
import { readFileSync } from "node:fs";

/** A chunk's name as bundle-cli writes it (rolldown's `[name]-[hash].cjs`, an 8-character base64url hash). */
const chunkName = /^[\w.-]+-[\w-]{8}\.cjs$/;
/** How one chunk loads another, statically or as the bundle renders an `import()` of ctxkit's own code. */
const chunkReference = /\brequire\("\.\/([^"/]+\.cjs)"\)/g;
/** A chunk written this recently stays, whatever the generations say (a concurrent build's, a burst of rebuilds). */
export const keepRecentChunksMs = 10 * 60 * 1000;

/**
 * The files of the bundle in `folder` that `entryFiles` (main.cjs, …) load, directly or through
 * other chunks: the generation a process started from them runs on. Files that are missing or
 * unreadable are skipped (a folder with no bundle yet has no generation).
 */
export function generationOf(folder, entryFiles) {
  const reached = new Set();
  for (const pending = [...entryFiles]; pending.length > 0; ) {
    const file = pending.pop();
    if (reached.has(file)) continue;
    let source;
    try {
      source = readFileSync(`${folder}/${file}`, "utf8");
    } catch {
      continue;
    }
    reached.add(file);
    for (const [, referenced] of source.matchAll(chunkReference)) pending.push(referenced);
  }
  return reached;
}

/**
 * The names among `files` (`{ name, mtimeMs }`) to remove: the chunks neither in `keep` (this
 * build's files and the generation it replaced) nor written within `keepRecentMs` of `now`.
 */
export function chunksToRemove({ files, keep, now, keepRecentMs = keepRecentChunksMs }) {
  return files.filter(({ name, mtimeMs }) => chunkName.test(name) && !keep.has(name) && now - mtimeMs > keepRecentMs).map(({ name }) => name);
}
