#!/usr/bin/env node
// CommonJS (bin/package.json): Node's CommonJS loader is ready at start, its ES module loader is not.
"use strict";
const { existsSync, readFileSync, statSync } = require("node:fs");
const { dirname, join } = require("node:path");

// In a fresh clone (`npm ci && npx ctxkit demo`) dist/ is built on first use; an installed package
// ships dist/ and never builds (no install scripts run on a user's machine).
const root = `${dirname(__dirname)}/`;
// Required only to build: node:child_process and what it loads cost a start that builds nothing ~10 ms.
const execFileSync = (...args) => require("node:child_process").execFileSync(...args);
const needsTsc = () => !existsSync(`${root}dist/cli/main.js`) && existsSync(`${root}src/cli/main.ts`);
// The viewer's page (`ctxkit view`) is a Vite bundle, built the same way on first use.
const needsVite = () => !existsSync(`${root}dist/web/page/index.html`) && existsSync(`${root}web/vite.config.ts`);
// The CLI runs from dist/cli-bundle/, a few chunks instead of hundreds of modules (start-up time);
// `npm run build` writes it after tsc. In a clone (the package does not ship scripts/) it is made
// again when any compiled file it was made from (its inputs.json) is newer than it: `tsc --watch`
// rewrites only the files that changed.
const bundle = `${root}dist/cli-bundle/main.cjs`;
const inClone = existsSync(`${root}scripts/bundle-cli.mjs`);
const needsBundle = () => inClone && bundleIsStale();

function bundleIsStale() {
  const built = statSync(bundle, { throwIfNoEntry: false });
  if (built === undefined) return true;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(`${root}dist/cli-bundle/inputs.json`, "utf8"));
  } catch {
    return true; // made before bundles listed their inputs
  }
  return inputs.some((file) => (statSync(root + file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) > built.mtimeMs);
}

// `ctxkit --help`, `ctxkit run --help`…: printed from dist/cli-bundle/help.json when it is known to be
// what the bundle prints (bin/known-help.js), without loading the bundle or checking all of it.
const helpAnswer = needsTsc() || needsVite() ? undefined : require("./known-help.js").knownHelp(root, process.argv.slice(2), inClone);
if (helpAnswer !== undefined) {
  // Only the streams written to: opening one costs a start that does not use it.
  const written = [["stdout", helpAnswer.stdout], ["stderr", helpAnswer.stderr]].filter(([, text]) => text !== "");
  endQuietlyWhenTheReaderLeaves(written.map(([name]) => process[name]));
  for (const [name, text] of written) process[name].write(text);
  process.exitCode = helpAnswer.code;
} else {
  runCli();
}

// `ctxkit demo | head -1`: the reader left; that is not an error worth a stack trace.
function endQuietlyWhenTheReaderLeaves(streams = [process.stdout, process.stderr]) {
  for (const stream of streams) {
    stream.on("error", (error) => {
      if (error && error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}

function runCli() {
  if (needsTsc() || needsVite() || needsBundle()) {
    // Several starts at once (a shell loop, parallel tests) build once: the others wait for the lock,
    // then find nothing left to build.
    require("./build-lock.js").withBuildLock(`${root}dist/.build.lock`, () => {
      if (needsTsc()) {
        process.stderr.write("ctxkit: building dist/ (first run in this clone)…\n");
        const tsc = require.resolve("typescript/bin/tsc");
        execFileSync(process.execPath, [tsc, "-p", `${root}tsconfig.build.json`], { stdio: ["ignore", "inherit", "inherit"] });
      }
      if (needsVite()) {
        // vite's `exports` do not list its bin: find the package, then the file.
        const vite = `${dirname(require.resolve("vite/package.json"))}/bin/vite.js`;
        execFileSync(process.execPath, [vite, "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
      }
      if (needsBundle()) execFileSync(process.execPath, [`${root}scripts/bundle-cli.mjs`], { stdio: ["ignore", "inherit", "inherit"] });
    });
  }
  // The big chunks start from a V8 code cache an earlier start left (bin/code-cache.js), loaded when
  // the first file that big is compiled: `--help` compiles none. CTXKIT_NO_CODE_CACHE set to anything
  // but "" or "0" turns it off.
  const noCodeCache = (process.env.CTXKIT_NO_CODE_CACHE ?? "") !== "" && process.env.CTXKIT_NO_CODE_CACHE !== "0";
  if (existsSync(bundle) && !noCodeCache) {
    // Below this a file compiles in well under a millisecond: reading and hashing a cache would cost more.
    const minLength = 32 * 1024;
    const Module = module.constructor;
    const compile = Module.prototype._compile;
    // Node 20.19+ passes the module's format as a third argument: passed on as it came.
    Module.prototype._compile = function (content, filename, ...rest) {
      if (typeof content !== "string" || content.length < minLength) return Reflect.apply(compile, this, [content, filename, ...rest]);
      Module.prototype._compile = compile;
      require("./code-cache.js").installCodeCache({ bundleDir: join(root, "dist/cli-bundle"), cacheDir: join(root, "dist/cli-bundle/v8-cache"), main: require.main, minLength });
      return this._compile(content, filename, ...rest);
    };
  }
  const cli = existsSync(bundle)
    ? Promise.resolve({ ...require(bundle), ...require(`${root}dist/cli-bundle/termination-signals.cjs`) })
    : Promise.all([import("../dist/cli/main.js"), import("../dist/cli/termination-signals.js")]).then(([main, signals]) => ({ ...main, ...signals }));

  cli.then(({ main, installTerminationHandlers }) => {
    // SIGTERM and SIGHUP end the bash commands' processes too (each runs in a session of its own).
    installTerminationHandlers();

    endQuietlyWhenTheReaderLeaves();

    return main(process.argv.slice(2)).then(
      (code) => { process.exitCode = code; },
      (error) => { process.stderr.write(`ctxkit: ${error instanceof Error ? error.message : String(error)}\n`); process.exitCode = 1; },
    );
  });
}
