// CommonJS (bin/package.json). A V8 code cache for the big chunks of the CLI's bundle (issue 30,
// item 6): compiling the run's chunk (some 630 KB) was the largest part of a run's start, and V8
// can start from what an earlier process compiled instead (so can a package's CommonJS file the
// chunks require). Each file's cache is a file of its own in dist/cli-bundle/v8-cache/, named by
// the file and by what V8 compiles differently under (the Node version, the architecture, V8's flags and
// NODE_OPTIONS: variants sit side by side instead of replacing each other's at every start), and
// keyed by what the file was made from (V8 itself checks only its version, its flags and the
// source's length). A chunk's name holds a hash of its content (rolldown's [hash]), so new content
// comes under a new name anyway: a chunk's key is its length, size and modification time (the time
// catches a file rewritten under the same name), where a sha1 of the run's 840 KB chunk cost 4–10 ms
// at every start (the string is encoded to UTF-8 first). A package's file keeps the same name from
// one version to the next, and a copy can keep its time: its key is a sha1 of its content. V8 does
// not check its data's integrity either, and damaged data can crash the process
// (a fatal error, before any exit handler could write a good cache): the header holds a sha1 of the
// data, checked before V8 sees it. A cache that is missing, damaged, made from other content or in
// a folder that cannot be written costs the time it was meant to save: the file is compiled as Node
// would have.
"use strict";
// The loader's class without the public node:module, whose loading pulls in the ES module loader (~1 ms).
const Module = module.constructor;
const { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } = require("node:fs");
const { basename, dirname, sep } = require("node:path");
const { createHash, hash, randomBytes } = require("node:crypto");

const magic = "ctxkit-v8-cache-3";

// crypto.hash (Node 20.12+) skips the Hash object: a little faster on a chunk of 630 KB.
const sha1 = (data) => (typeof hash === "function" ? hash("sha1", data) : createHash("sha1").update(data).digest("hex"));

/**
 * What V8 compiles differently under, as a name: this Node, this architecture, these flags (the
 * script of `-e`/`-p` is not a flag). Two variants (`node --max-old-space-size=… ctxkit`, another
 * NODE_OPTIONS) keep a cache each instead of V8 rejecting and rewriting one at every start.
 */
function fingerprint() {
  const flags = [];
  for (let index = 0; index < process.execArgv.length; index += 1) {
    const flag = process.execArgv[index];
    if (flag === "-e" || flag === "--eval" || flag === "-p" || flag === "--print") index += 1;
    else if (!flag.startsWith("--eval=") && !flag.startsWith("--print=")) flags.push(flag);
  }
  return sha1(JSON.stringify([process.version, process.arch, flags, process.env.NODE_OPTIONS ?? ""])).slice(0, 16);
}

/**
 * The cache file of a chunk (one per chunk and variant: a chunk's new content replaces its old
 * cache), or of a package's file, in packages/ (named by its path: the same file of two installs
 * differs in content).
 */
function cachePathOf(cacheDir, filename, bundleDir, variant) {
  if (dirname(filename) === bundleDir) return `${cacheDir}/${basename(filename)}.${variant}.cache`;
  return `${cacheDir}/packages/${sha1(filename).slice(0, 16)}-${basename(filename)}.${variant}.cache`;
}

// An `import(` as V8 reads it: spaces and comments may stand between the keyword and the parenthesis.
const dynamicImport = /\bimport\s*(?:\/\*[\s\S]*?\*\/\s*)*\(/;

/**
 * What is cached: the bundle's chunks, and the packages' CommonJS files they require. `format` is
 * what Node 20.19+ passes: "module" for an ES module loaded by `require`, which is Node's to
 * compile (as a module, not a script).
 */
function isCached(filename, content, format, bundleDir, minLength) {
  if (format !== undefined && format !== "commonjs") return false;
  if (typeof filename !== "string" || typeof content !== "string" || content.length < minLength) return false;
  if (dirname(filename) !== bundleDir && !filename.includes(`${sep}node_modules${sep}`)) return false;
  // Code compiled from a cache cannot `import()` on Node 20 (it throws
  // ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): the bundler routes the chunks' import()s through a
  // module of their own (scripts/bundle-cli.mjs), and a file that still has one is Node's to compile.
  return !dynamicImport.test(content);
}

/**
 * What a cache must have been made from: this Node, this architecture, and this chunk as it is on
 * disk (its name holds a hash of its content: its length, size and modification time), or this
 * package file's content.
 */
function cacheKey(filename, content, bundleDir) {
  if (dirname(filename) !== bundleDir) return `${magic} ${process.version} ${process.arch} sha1:${sha1(content)}`;
  const { size, mtimeMs } = statSync(filename);
  return `${magic} ${process.version} ${process.arch} ${content.length} ${size} ${mtimeMs}`;
}

/**
 * The cache file at `path` made under `key`: `{ data, partial }`, "damaged" (its data is not what
 * its header's digest says), or undefined (none, unreadable, or made from something else).
 * `partial`: the process that wrote it did not exit 0 (a usage error compiles little of a chunk).
 */
function readCache(path, key) {
  let file;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  // A header line: the key, the sha1 of the data, "complete" or "partial"; then V8's data.
  const newline = file.indexOf(10);
  if (newline < 0) return undefined;
  const header = file.toString("latin1", 0, newline);
  if (!header.startsWith(`${key} `)) return undefined;
  const [digest, state] = header.slice(key.length + 1).split(" ");
  const data = file.subarray(newline + 1);
  // V8 trusts its data: damaged data can end the process with a fatal error.
  if (sha1(data) !== digest || (state !== "complete" && state !== "partial")) return "damaged";
  return { data, partial: state === "partial" };
}

/**
 * Writes the cache whole or not at all: a process reading it meanwhile finds the old one or none,
 * and a crash (a power cut included: the data is on disk before the rename) leaves no half-written
 * file under its name. The temporary file is a new one of this writer's own ("wx", a random
 * name): two writers never share one. `makeData` runs only once the file could be opened (V8 takes
 * milliseconds to serialize a big chunk: a read-only install must not pay that at every exit).
 * True when written.
 */
function writeCache(path, key, partial, makeData) {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  let descriptor;
  try {
    mkdirSync(dirname(path), { recursive: true });
    descriptor = openSync(temporary, "wx");
  } catch {
    return false; // a read-only install: the next start compiles as this one did
  }
  try {
    try {
      const data = makeData();
      writeSync(descriptor, `${key} ${sha1(data)} ${partial ? "partial" : "complete"}\n`);
      writeSync(descriptor, data);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, path);
    return true;
  } catch {
    // A full disk, or V8 could not serialize.
    try {
      unlinkSync(temporary);
    } catch {
      // already gone
    }
    return false;
  }
}

/**
 * The chunk compiled as a script (no `importModuleDynamically`: code compiled from a cache cannot
 * `import()` on Node 20 whatever the option, see the caller).
 */
function compileScript(source, filename, cachedData) {
  const vm = require("node:vm");
  return new vm.Script(source, { filename, cachedData });
}

/** The `require` a module's code sees, as Node makes it for a module it compiles. */
function requireFor(module, main) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, module);
  require.main = main;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/**
 * Compiles the chunks of `bundleDir` that are at least `minLength` long (bin/ctxkit.js holds the
 * threshold), and the packages' CommonJS files, with a code cache from `cacheDir`. The caches of
 * files compiled without one are written when the process exits (then they hold every function the
 * process compiled, not only the file's top level), or at once by `flush()`. A cache written by a
 * process that did not exit 0 is marked partial (a usage error compiles little of a chunk), and a
 * later start that used it and exits 0 writes it again.
 * Returns what it saw, for tests and the benchmark: `used`, `rejected` and `written` file names.
 */
function installCodeCache({ bundleDir, cacheDir, main, minLength }) {
  if (typeof minLength !== "number") throw new TypeError("installCodeCache: minLength must be a number (bin/ctxkit.js holds the CLI's)");
  const compile = Module.prototype._compile;
  const variant = fingerprint();
  const toWrite = new Map();
  const stats = { used: [], rejected: [], written: [] };

  /** `exitCode`: the process's, at exit; a cache written before the process ends counts as complete. */
  function flush(exitCode = 0) {
    const complete = exitCode === 0;
    for (const [path, { key, script, name, onlyIfComplete }] of toWrite) {
      if (onlyIfComplete && !complete) continue;
      if (writeCache(path, key, !complete, () => script.createCachedData())) stats.written.push(name);
    }
    toWrite.clear();
  }

  // Node 20.19+ passes a third argument, the module's format: every call to Node's own passes it on.
  Module.prototype._compile = function (content, filename, ...rest) {
    if (!isCached(filename, content, rest[0], bundleDir, minLength)) return Reflect.apply(compile, this, [content, filename, ...rest]);
    let script;
    try {
      const path = cachePathOf(cacheDir, filename, bundleDir, variant);
      const key = cacheKey(filename, content, bundleDir);
      const cache = readCache(path, key);
      const cachedData = typeof cache === "object" ? cache.data : undefined;
      script = compileScript(Module.wrap(content), filename, cachedData);
      const name = basename(filename);
      if (cachedData !== undefined && !script.cachedDataRejected) {
        stats.used.push(name);
        // Written again from what this process compiles, if it gets further (exits 0).
        if (cache.partial) toWrite.set(path, { key, script, name, onlyIfComplete: true });
      } else {
        if (cache !== undefined) stats.rejected.push(name);
        toWrite.set(path, { key, script, name, onlyIfComplete: false });
      }
    } catch {
      // Whatever failed (a syntax error included) is Node's to compile and report.
      return Reflect.apply(compile, this, [content, filename, ...rest]);
    }
    const run = script.runInThisContext({ displayErrors: true });
    return Reflect.apply(run, this.exports, [this.exports, requireFor(this, main), this, filename, dirname(filename)]);
  };

  process.once("exit", (code) => flush(code));
  return { stats, flush };
}

module.exports = { installCodeCache };
