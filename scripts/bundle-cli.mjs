#!/usr/bin/env node
// Bundles the compiled CLI (dist/cli/main.js and what it imports) into a few chunks in
// dist/cli-bundle/, which bin/ctxkit.js runs. Start-up (issue 30, item 6): Node resolves, reads and
// compiles each ES module on its own, and a run imports some 360 of ctxkit's modules before its first
// request; as a few chunks the same code loads in a fraction of the time. Each dynamic `import()`
// stays a chunk of its own, loaded when first used, and third-party packages stay imports from
// node_modules. dist/ keeps every module unbundled for the library's entry points, and the workers
// and data files the CLI opens by path.
//
// Usage: node scripts/bundle-cli.mjs   (after `tsc -p tsconfig.build.json`; `npm run build` runs both)
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = `${root}dist/cli-bundle`;

// Vite's own bundler: the build already depends on vite, which pins the rolldown it ships with.
const requireFromVite = createRequire(createRequire(import.meta.url).resolve("vite/package.json"));
const { rolldown } = await import(pathToFileURL(requireFromVite.resolve("rolldown")).href);

/**
 * A module that finds files beside itself (`new URL("./worker.js", import.meta.url)`, data, the
 * package.json, `createRequire`) keeps finding them from its chunk: its `import.meta.url` becomes
 * the URL of its own compiled file, which dist/ still holds.
 */
const keepModuleUrls = {
  name: "keep-module-urls",
  transform(code, id) {
    if (!code.includes("import.meta.url")) return null;
    const fromChunk = relative(outDir, id).split("\\").join("/");
    return { code: code.replaceAll("import.meta.url", `new URL(${JSON.stringify(fromChunk)}, import.meta.url).href`), map: null };
  },
};

rmSync(outDir, { recursive: true, force: true });
const bundle = await rolldown({
  input: { main: `${root}dist/cli/main.js`, "termination-signals": `${root}dist/cli/termination-signals.js` },
  platform: "node",
  // Node's modules and the dependencies are imported as they are, at the moment they were before.
  external: (id) => !id.startsWith(".") && !isAbsolute(id),
  plugins: [keepModuleUrls],
  logLevel: "warn",
});
try {
  await bundle.write({ dir: outDir, format: "esm", entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js", sourcemap: false });
} finally {
  await bundle.close();
}
