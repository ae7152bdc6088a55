#!/usr/bin/env node
// Bundles the compiled CLI (dist/cli/main.js and what it imports) into a few CommonJS chunks in
// dist/cli-bundle/, which bin/ctxkit.js runs. Start-up (issue 30, item 6): Node resolves, reads and
// links each ES module on its own, and a run imported some 360 of ctxkit's modules before its first
// request; as a few chunks the same code loads in a fraction of the time. CommonJS because Node's
// loader for it is ready when a process starts, while the ES module loader is loaded on first use.
// Each dynamic `import()` of ctxkit's own code stays a chunk of its own, required when first used;
// third-party packages stay where they are in node_modules (but for the few in bundledPackages):
// `import()`ed as before, and the few imported statically are required (each must ship CommonJS:
// checked below, as Node 20 cannot require an ES module). The chunks are written in ASCII, without
// comments (but the bundled packages' licenses) or indentation: Node reads a chunk as UTF-8 into a string at every start (a chunk
// with any other character becomes a string of two bytes a character), and the run's chunk, some
// 900 KB written out, was 630 KB this way.
// dist/ keeps every module unbundled for the library's entry points, and the workers and data files
// the CLI opens by path.
//
// Usage: node scripts/bundle-cli.mjs   (after `tsc -p tsconfig.build.json`; `npm run build` runs both)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = `${root}dist/cli-bundle`;
// Both passes write here; only the final chunks are moved into outDir (the folder processes run from).
// A sibling of outDir, so the paths from a chunk to dist/ are the same from both.
const buildDir = `${root}dist/cli-bundle.tmp-${process.pid}`;
// The bundle's main.cjs gets this as its time: a compiled file changed while the bundle was being
// made is newer than it, and the next start bundles again (bin/ctxkit.js compares them).
const startedAt = new Date();
// Chunks of earlier builds stay for processes started from them (a long `ctxkit chat` requires its
// chunks when first used); those older than this are removed (`npm pack` starts from an empty dist/).
const keepOldChunksMs = 24 * 60 * 60 * 1000;
// A failed build leaves the published bundle as it was, and no folder behind.
process.on("exit", () => rmSync(buildDir, { recursive: true, force: true }));

// Vite's own bundler: the build already depends on vite, which pins the rolldown it ships with.
const requireFromVite = createRequire(createRequire(import.meta.url).resolve("vite/package.json"));
const { rolldown } = await import(pathToFileURL(requireFromVite.resolve("rolldown")).href);
const { parseAst } = await import(pathToFileURL(requireFromVite.resolve("rolldown/parseAst")).href);

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

/**
 * The chunks' `import()`s of packages (and of computed specifiers) call a small module of the
 * bundle that does the `import()` instead. bin/code-cache.js compiles the big chunks from a V8 code
 * cache, and on Node 20 code compiled from a cache has lost what `import()` needs (it throws
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING); that module is compiled by Node as usual. It sits in
 * the chunks' folder, so a specifier resolves from there as it did from the chunk.
 */
const importModuleFile = "import-module.cjs";
const importModuleSource = `"use strict";
// import() for the chunks of the CLI's bundle (see scripts/bundle-cli.mjs): never compiled from a code cache.
module.exports = (specifier, options) => import(specifier, options);
`;
const routeDynamicImports = {
  name: "route-dynamic-imports",
  renderChunk(code) {
    const starts = [];
    (function walk(node) {
      if (Array.isArray(node)) for (const child of node) walk(child);
      else if (node !== null && typeof node === "object") {
        if (node.type === "ImportExpression") starts.push(node.start);
        for (const [key, value] of Object.entries(node)) if (key !== "type" && typeof value === "object") walk(value);
      }
    })(parseAst(code));
    if (starts.length === 0) return null;
    let routed = code;
    for (const start of starts.sort((left, right) => right - left)) {
      if (routed.slice(start, start + "import".length) !== "import") throw new Error(`route-dynamic-imports: no \`import\` at offset ${start} of a chunk`);
      routed = `${routed.slice(0, start)}require(${JSON.stringify(`./${importModuleFile}`)})${routed.slice(start + "import".length)}`;
    }
    return { code: routed, map: null };
  },
};

/** The compiled modules `file` imports statically, and theirs (tsc writes `from "./x.js"`). */
function staticClosure(file, into = new Set()) {
  if (into.has(file)) return into;
  into.add(file);
  for (const [, specifier] of readFileSync(file, "utf8").matchAll(/^(?:import|export)\b[^;]*?["'](\.{1,2}\/[^"']+)["'];?$/gm)) {
    staticClosure(join(dirname(file), specifier), into);
  }
  return into;
}

/**
 * Dependencies bundled into the chunks instead of required from node_modules. valibot, the config
 * schema's validator, is used by every run before its session starts: required, it cost some 15 ms
 * of a start (its package's exports resolved, 210 KB read, hashed for the code cache and
 * deserialized), where the few functions the schema uses, bundled, are some 12 KB of the run chunk.
 * A package bundled here must be pure ES modules with no state shared with the library's own copy
 * (the CLI's bundle holds every module of ctxkit that uses it).
 */
const bundledPackages = new Set(["valibot"]);
/** The folder of the bundled package a module belongs to (`…/node_modules/valibot`), or undefined. */
function bundledPackageDirOf(id) {
  const path = id.split("\\").join("/");
  for (const name of bundledPackages) {
    const at = path.lastIndexOf(`/node_modules/${name}/`);
    if (at !== -1) return path.slice(0, at + `/node_modules/${name}`.length);
  }
  return undefined;
}
/**
 * The license of each package bundled into `chunk`, as a comment at its top: the chunk holds a copy
 * of part of the package, which its license (valibot's: MIT) asks to carry the notice. After the
 * comments are stripped and in ASCII, as the rest of the chunk (see the top).
 */
function licensesOf(chunk) {
  const packageDirs = new Set(chunk.moduleIds.map(bundledPackageDirOf).filter((dir) => dir !== undefined));
  return [...packageDirs].map((dir) => {
    const { name, version, license } = JSON.parse(readFileSync(`${dir}/package.json`, "utf8"));
    const file = readdirSync(dir).find((entry) => /^(?:licen[cs]e|copying)(?:\.|$)/i.test(entry));
    if (file === undefined) throw new Error(`bundle-cli: ${name} is bundled into the CLI, but ${dir} holds no LICENSE file to keep with it: bundle it only if its license allows without one, and say so here.`);
    const text = readFileSync(`${dir}/${file}`, "utf8").trim().replaceAll("*/", "* /");
    if (/[^\t\n\r\x20-\x7e]/.test(text)) throw new Error(`bundle-cli: ${dir}/${file} holds characters other than printable ASCII, which the chunks are written in (see the top): write its notice here with them escaped.`);
    return `/*! ${name} ${version} (${license}), bundled from ${name}/${file}:\n${text}\n*/\n`;
  }).join("");
}

/** Puts the bundled packages' licenses at the top of the chunks holding them (see licensesOf). */
const keepLicenses = {
  name: "keep-licenses",
  renderChunk(code, chunk) {
    const licenses = licensesOf(chunk);
    return licenses === "" ? null : { code: `${licenses}${code}`, map: null };
  },
};

/** Where the root's node_modules really is: a link, in a worktree or a copy (see asSeenFromRoot). */
const rootModulesReal = existsSync(join(root, "node_modules")) ? realpathSync(join(root, "node_modules")) : undefined;

const entries = { main: `${root}dist/cli/main.js`, "termination-signals": `${root}dist/cli/termination-signals.js` };
const helpTexts = [`${root}dist/cli/commands/run-help.js`, `${root}dist/cli/commands/chat-help.js`];

/** Bundles the CLI with these chunk groups; returns the chunks written. */
async function bundleInto(groups) {
  rmSync(buildDir, { recursive: true, force: true });
  const bundle = await rolldown({
    input: entries,
    platform: "node",
    // Node's modules and the dependencies are imported as they are, at the moment they were before,
    // but for the few bundled in (see bundledPackages).
    external: (id) => !id.startsWith(".") && !isAbsolute(id) && !bundledPackages.has(id),
    // Entry chunks may export more than their module does (groups move modules between chunks).
    preserveEntrySignatures: "allow-extension",
    plugins: [keepModuleUrls, routeDynamicImports, keepLicenses],
    logLevel: "warn",
    // A start in a clone bundles on its own (its stderr is the command's): rolldown's note that the
    // plugins took most of a build, which a busy machine triggers, is no warning worth printing there.
    checks: { bundlerTimings: false },
  });
  try {
    const { output } = await bundle.write({
      dir: buildDir,
      format: "cjs",
      // The modules were ES modules, strict mode included.
      strict: true,
      entryFileNames: "[name].cjs",
      chunkFileNames: "[name]-[hash].cjs",
      sourcemap: false,
      // What a start reads (see the top): escapes for non-ASCII characters, and no comments (but legal
      // ones, and the licenses keepLicenses adds) or indentation (whitespace only: names are kept, in error stacks too).
      charset: "ascii",
      comments: { legal: true, annotation: true, jsdoc: false },
      minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
      // A group takes the modules it names only: what `--help` loads stays out of the big chunks.
      ...(groups.length > 0 ? { codeSplitting: { includeDependenciesRecursively: false, groups } } : {}),
    });
    return output.filter((item) => item.type === "chunk");
  } finally {
    await bundle.close();
  }
}

// First the automatic split, to see which modules `ctxkit --help` and `ctxkit run --help` load:
// the entries' chunks and the help texts', with the chunks they import.
const automatic = await bundleInto([]);
const chunkNamed = new Map(automatic.map((chunk) => [chunk.fileName, chunk]));
const helpChunks = automatic.filter((chunk) => chunk.isEntry || chunk.moduleIds.some((id) => helpTexts.includes(id)));
const light = new Set();
for (const pending = [...helpChunks]; pending.length > 0; ) {
  const chunk = pending.pop();
  if (chunk.moduleIds.every((id) => light.has(id)) && chunk.moduleIds.length > 0) continue;
  for (const id of chunk.moduleIds) light.add(id);
  pending.push(...chunk.imports.map((name) => chunkNamed.get(name)).filter((next) => next !== undefined));
}

// Then what `ctxkit run` imports before its first request goes into one chunk, where the automatic
// split made some 50 (each resolved, read and linked on its own), and each provider into one, loaded
// when a run chooses it (the default one first: what the providers share goes with it).
const runPath = new Set([...staticClosure(`${root}dist/cli/commands/run-command.js`)].filter((file) => !light.has(file)));
const providers = ["openai-compatible", "anthropic", "openai-responses", "llama"].map((name) => {
  const modules = new Set([...staticClosure(`${root}dist/providers/${name}/create-${name}.js`)].filter((file) => !light.has(file) && !runPath.has(file)));
  return { name: `provider-${name}`, test: (id) => modules.has(id) };
});
// The bundled packages go with the run's modules: the config schema there is what uses them.
const chunks = await bundleInto([{ name: "run", test: (id) => runPath.has(id) || bundledPackageDirOf(id) !== undefined }, ...providers]);

// A package the chunks require must load as CommonJS; otherwise its import belongs behind `import()`.
const requireFromBundle = createRequire(`${buildDir}/main.cjs`);
for (const name of new Set(chunks.flatMap((chunk) => [...chunk.code.matchAll(/\brequire\("([^".][^"]*)"\)/g)].map((match) => match[1])))) {
  if (isBuiltin(name)) continue;
  try {
    requireFromBundle(name);
  } catch (error) {
    throw new Error(`The CLI's bundle requires ${name}, which does not load as CommonJS (${error.code ?? error.message}). Import it with \`await import("${name}")\` where it is used.`);
  }
}

writeFileSync(`${buildDir}/${importModuleFile}`, importModuleSource);

// The help texts bin/ctxkit.js prints without loading the bundle (bin/known-help.js): what the
// bundle's own `main` prints for each of these command lines, and the compiled files of the chunks
// it loaded to print it (an edit of any of them makes the binary ask the bundle instead).
const helpCommandLines = [[], ["--help"], ["-h"], ["help"], ...["run", "chat"].flatMap((command) => [[command, "--help"], [command, "-h"]])];
const requireFromBuild = createRequire(`${buildDir}/main.cjs`);
const { main: bundledMain } = requireFromBuild(`${buildDir}/main.cjs`);
// Each is asked twice: as the bundling runs, and from a terminal with another width, colour
// setting, model variable and a workspace config. help.json holds one text for every user, so a help
// text that depends on any of these (a future one might) fails the bundling here instead.
const otherWorkspace = mkdtempSync(join(tmpdir(), "ctxkit-help-workspace-"));
process.on("exit", () => rmSync(otherWorkspace, { recursive: true, force: true }));
writeFileSync(join(otherWorkspace, "ctxkit.config.json"), `${JSON.stringify({ model: "from-config", maxIterations: 3 })}\n`);
const settings = [
  { isTTY: false, env: {}, cwd: root },
  { isTTY: true, env: { COLUMNS: "40", NO_COLOR: "1", CTXKIT_MODEL: "x" }, cwd: otherWorkspace },
];
async function answerOf(argv, { isTTY, env, cwd }) {
  const printed = { stdout: "", stderr: "" };
  const stream = (name) => ({ write: (text) => ((printed[name] += String(text)), true), isTTY, columns: Number(env.COLUMNS ?? 80) });
  const io = { get stdin() { throw new Error("a help text read stdin"); }, stdout: stream("stdout"), stderr: stream("stderr"), env, cwd };
  const code = await bundledMain(argv, io);
  return { ...printed, code };
}
// Each distinct answer once (`--help`, `-h` and `help` print the same): `answers` holds the texts,
// `commandLines` the index of each command line's.
const answers = [];
const commandLines = {};
for (const argv of helpCommandLines) {
  const printedWith = [];
  for (const setting of settings) printedWith.push(await answerOf(argv, setting));
  const [answer, ...others] = printedWith;
  for (const [index, other] of others.entries()) {
    if (JSON.stringify(other) !== JSON.stringify(answer)) {
      throw new Error(`bundle-cli: \`ctxkit ${argv.join(" ")}\` prints another text with ${JSON.stringify(settings[index + 1])}: help.json can hold only help texts that depend on neither the terminal, the environment nor the workspace (leave this command line out of helpCommandLines)`);
    }
  }
  const known = answers.findIndex((other) => JSON.stringify(other) === JSON.stringify(answer));
  commandLines[JSON.stringify(argv)] = known === -1 ? answers.push(answer) - 1 : known;
}
const helpChunkFiles = new Set(Object.keys(requireFromBuild.cache).filter((file) => dirname(file) === dirname(`${buildDir}/main.cjs`)).map((file) => relative(buildDir, file)));
const helpInputs = inputFilesOf(chunks.filter((chunk) => helpChunkFiles.has(chunk.fileName)));
if (!helpChunkFiles.has("main.cjs") || helpInputs.length < 3) throw new Error(`bundle-cli: the help texts came from no chunk of the bundle (loaded: ${[...helpChunkFiles].join(", ")})`);
writeFileSync(`${buildDir}/help.json`, `${JSON.stringify({ inputs: helpInputs, commandLines, answers })}\n`);

// What the bundle was made from, for bin/ctxkit.js to bundle again when any of it changes (a
// `tsc --watch` rewrites only the files that changed).
writeFileSync(`${buildDir}/inputs.json`, `${JSON.stringify(inputFilesOf(chunks))}\n`);

/** The files `someChunks` were made from, this script first, as paths from the package's root (help.json's and inputs.json's). */
function inputFilesOf(someChunks) {
  const files = new Set([fileURLToPath(import.meta.url), ...someChunks.flatMap((chunk) => chunk.moduleIds.filter((id) => isAbsolute(id)))]);
  return [...new Set([...files].map((file) => asSeenFromRoot(file).split("\\").join("/")))];
}

/**
 * A file's path from the package's root. The bundler names a bundled package's file by its real
 * path, which for a linked node_modules (a worktree's, a copy's) lies outside the project: such a
 * file is named through the root's node_modules, which still finds it when the link moves. Any
 * other file keeps its path as it is (a package hoisted into a parent folder's node_modules, of a
 * workspace, is `../node_modules/...`: named through the root's node_modules, which has none, it
 * would look removed, and every start would bundle again).
 */
function asSeenFromRoot(file) {
  const linkedModules = rootModulesReal === undefined ? "" : relative(rootModulesReal, file);
  const underLinkedModules = linkedModules !== "" && !linkedModules.startsWith("..") && !isAbsolute(linkedModules);
  return underLinkedModules ? join("node_modules", linkedModules) : relative(root, file);
}

// Published file by file, each with a rename (a process never reads a half-written file): the new
// hashed chunks beside the old ones, then the entries, main.cjs last (its time says the bundle is fresh).
const written = readdirSync(buildDir);
const entryFiles = Object.keys(entries).map((name) => `${name}.cjs`).sort((a, b) => Number(a === "main.cjs") - Number(b === "main.cjs"));
mkdirSync(outDir, { recursive: true });
// help.json gets the same time: bin/known-help.js answers from it only beside the main.cjs it was made with.
for (const file of ["main.cjs", "help.json"]) utimesSync(`${buildDir}/${file}`, startedAt, startedAt);
for (const file of [...written.filter((name) => !entryFiles.includes(name)), ...entryFiles]) renameSync(`${buildDir}/${file}`, `${outDir}/${file}`);
rmSync(buildDir, { recursive: true, force: true });

const now = Date.now();
for (const file of readdirSync(outDir, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name)) {
  if (!written.includes(file) && now - statSync(`${outDir}/${file}`).mtimeMs > keepOldChunksMs) rmSync(`${outDir}/${file}`, { force: true });
}
// The V8 code caches bin/code-cache.js writes (`<chunk>.<variant>.cache`, one per chunk and variant
// of Node and its flags): a removed chunk's go with it, as do caches in a format of an earlier
// ctxkit, and a temporary file a killed process left (a writer needs milliseconds: one an hour old
// is left over). The packages' caches are named by their file's path, which cannot be checked from
// the name: they are all removed, and the next start writes those it still needs.
const cacheDir = `${outDir}/v8-cache`;
const leftoverTemporaryMs = 60 * 60 * 1000;
const filesIn = (folder) => (existsSync(folder) ? readdirSync(folder, { withFileTypes: true }) : []).filter((entry) => entry.isFile()).map((entry) => entry.name);
for (const file of filesIn(cacheDir)) {
  const path = `${cacheDir}/${file}`;
  const temporary = /\.tmp$/.test(file);
  const chunk = /^(.+)\.[0-9a-f]{16}\.cache$/.exec(file)?.[1];
  const stale = temporary ? now - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? now) > leftoverTemporaryMs : chunk === undefined || !existsSync(`${outDir}/${chunk}`);
  if (stale) rmSync(path, { force: true });
}
for (const file of filesIn(`${cacheDir}/packages`)) {
  const path = `${cacheDir}/packages/${file}`;
  if (!/\.tmp$/.test(file) || now - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? now) > leftoverTemporaryMs) rmSync(path, { force: true });
}
// Left by a build that was killed.
for (const folder of readdirSync(`${root}dist`).filter((name) => name.startsWith("cli-bundle.tmp-"))) {
  if (now - statSync(`${root}dist/${folder}`).mtimeMs > keepOldChunksMs) rmSync(`${root}dist/${folder}`, { recursive: true, force: true });
}
