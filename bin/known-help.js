// CommonJS (bin/package.json). `ctxkit --help`, `ctxkit run --help` and the other help texts the
// bundle answers without loading a command (issue 30, item 6): scripts/bundle-cli.mjs runs the
// bundle's own `main` for each of these command lines and writes what it printed, and its exit
// code, to dist/cli-bundle/help.json, with the compiled files that produced it. The binary prints
// that instead of loading the bundle. In a clone it must also be what the bundle would print now: a
// help text is answered from the file only if it was made with the bundle as it is (both files
// carry the time the bundling started) and none of the files it came from is newer (a dozen
// stats, where checking the whole bundle stats some 750 files). Anything else is the CLI's to answer.
"use strict";
const { readFileSync, statSync } = require("node:fs");

const helpFile = "dist/cli-bundle/help.json";

/** Only a command line that might be a help request reads the file: `ctxkit demo` must not pay for it. */
function mightAskForHelp(argv) {
  return argv.length <= 2 && (argv.length === 0 || argv.some((arg) => arg === "--help" || arg === "-h" || arg === "help"));
}

const mtimeOf = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;

/**
 * What the CLI prints for exactly this command line, `{ stdout, stderr, code }`, or undefined when
 * help.json has no answer for it or may be out of date. `root` ends with a slash; `inClone`: the
 * compiled files may have changed since the bundle was made (an installed package's do not).
 */
function knownHelp(root, argv, inClone) {
  if (!mightAskForHelp(argv)) return undefined;
  let help;
  try {
    help = JSON.parse(readFileSync(root + helpFile, "utf8"));
  } catch {
    return undefined; // a bundle made before help.json, or none yet
  }
  const key = JSON.stringify(argv);
  const answer = help !== null && typeof help === "object" && help.answers !== null && typeof help.answers === "object" && Object.hasOwn(help.answers, key) ? help.answers[key] : undefined;
  if (answer === undefined || typeof answer.stdout !== "string" || typeof answer.stderr !== "string" || !Number.isInteger(answer.code)) return undefined;
  const madeAt = mtimeOf(root + helpFile);
  // Written by another bundling than the one main.cjs comes from (one under way, or an older script's).
  if (madeAt === undefined || mtimeOf(`${root}dist/cli-bundle/main.cjs`) !== madeAt) return undefined;
  if (inClone) {
    if (!Array.isArray(help.inputs) || help.inputs.length === 0) return undefined;
    for (const input of help.inputs) if (typeof input !== "string" || !((mtimeOf(root + input) ?? Infinity) <= madeAt)) return undefined;
  }
  return answer;
}

module.exports = { knownHelp, helpFile };
