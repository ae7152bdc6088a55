// CommonJS (bin/package.json). A V8 code cache for the big chunks of the CLI's bundle (issue 30,
// item 6): compiling the run's chunk (some 750 KB) was the largest part of a run's start, and V8
// can start from what an earlier process compiled instead (so can the config schema's validator,
// valibot). Each file's cache is a file of its own in dist/cli-bundle/v8-cache/, keyed by the Node
// version, the architecture and the file's content (V8 itself checks only its version, its flags
// and the source's length). Anything wrong with a cache (missing, corrupt, another Node, another
// content, a folder that cannot be written) only costs the time it was meant to save: the file is
// compiled as Node would have.
"use strict";
// The loader's class without the public node:module, whose loading pulls in the ES module loader (~1 ms).
const Module = module.constructor;
const { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } = require("node:fs");
const { basename, dirname, sep } = require("node:path");

// Below this a chunk compiles in well under a millisecond: reading and hashing a cache would cost more.
const defaultMinLength = 32 * 1024;
const magic = "ctxkit-v8-cache-1";

/**
 * The cache file of a chunk (one per chunk: a chunk's new content replaces its old cache), or of a
 * package's file, in packages/ (named by its path: the same file of two installs differs in content).
 */
function cachePathOf(cacheDir, filename, bundleDir) {
  if (dirname(filename) === bundleDir) return `${cacheDir}/${basename(filename)}.cache`;
  const { hash, createHash } = require("node:crypto");
  const pathDigest = typeof hash === "function" ? hash("sha1", filename) : createHash("sha1").update(filename).digest("hex");
  return `${cacheDir}/packages/${pathDigest.slice(0, 16)}-${basename(filename)}.cache`;
}

/** What is cached: the bundle's chunks, and the packages' CommonJS files they require (valibot: ~200 KB). */
function isCached(filename, content, bundleDir, minLength) {
  if (typeof filename !== "string" || content.length < minLength) return false;
  if (dirname(filename) !== bundleDir && !filename.includes(`${sep}node_modules${sep}`)) return false;
  // Code compiled from a cache cannot `import()` on Node 20 (it throws
  // ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): the bundler routes the chunks' import()s through a
  // module of their own (scripts/bundle-cli.mjs), and a file that still has one is Node's to compile.
  return !content.includes("import(");
}

/** What a cache must have been made from: this Node, this architecture, this content. */
function cacheKey(content) {
  const { hash, createHash } = require("node:crypto");
  const digest = typeof hash === "function" ? hash("sha1", content) : createHash("sha1").update(content).digest("hex");
  return `${magic} ${process.version} ${process.arch} ${digest}`;
}

/** The V8 data of a cache file made under `key`, or undefined (none, unreadable, or made from something else). */
function readCache(path, key) {
  let file;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  // A header line with the key, then V8's data.
  const newline = file.indexOf(10);
  if (newline < 0 || file.toString("latin1", 0, newline) !== key) return undefined;
  return file.subarray(newline + 1);
}

/**
 * Writes the cache whole or not at all: a process reading it meanwhile finds the old one or none.
 * `makeData` runs only once the file could be opened (V8 takes milliseconds to serialize a big
 * chunk: a read-only install must not pay that at every exit). True when written.
 */
function writeCache(path, key, makeData) {
  const temporary = `${path}.${process.pid}.tmp`;
  let descriptor;
  try {
    mkdirSync(dirname(path), { recursive: true });
    descriptor = openSync(temporary, "w");
  } catch {
    return false; // a read-only install: the next start compiles as this one did
  }
  try {
    try {
      writeSync(descriptor, `${key}\n`);
      writeSync(descriptor, makeData());
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
 * Compiles the chunks of `bundleDir` that are big enough, and the packages' CommonJS files, with a
 * code cache from `cacheDir`; the
 * caches of chunks compiled without one are written when the process exits (then they hold every
 * function the process compiled, not only the chunk's top level), or at once by `flush()`.
 * Returns what it saw, for tests and the benchmark: `used` and `written` chunk names.
 */
function installCodeCache({ bundleDir, cacheDir, main, minLength = defaultMinLength }) {
  const compile = Module.prototype._compile;
  const toWrite = new Map();
  const stats = { used: [], rejected: [], written: [] };

  function flush() {
    for (const [path, { key, script, name }] of toWrite) {
      if (writeCache(path, key, () => script.createCachedData())) stats.written.push(name);
    }
    toWrite.clear();
  }

  Module.prototype._compile = function (content, filename) {
    if (!isCached(filename, content, bundleDir, minLength)) return Reflect.apply(compile, this, [content, filename]);
    let script;
    let key;
    let path;
    try {
      path = cachePathOf(cacheDir, filename, bundleDir);
      key = cacheKey(content);
      const cachedData = readCache(path, key);
      script = compileScript(Module.wrap(content), filename, cachedData);
      if (cachedData !== undefined && !script.cachedDataRejected) stats.used.push(basename(filename));
      else {
        if (cachedData !== undefined) stats.rejected.push(basename(filename));
        toWrite.set(path, { key, script, name: basename(filename) });
      }
    } catch {
      // Whatever failed (a syntax error included) is Node's to compile and report.
      return Reflect.apply(compile, this, [content, filename]);
    }
    const run = script.runInThisContext({ displayErrors: true });
    return Reflect.apply(run, this.exports, [this.exports, requireFor(this, main), this, filename, dirname(filename)]);
  };

  process.once("exit", flush);
  return { stats, flush };
}

module.exports = { installCodeCache };
