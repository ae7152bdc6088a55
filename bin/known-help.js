// CommonJS (bin/package.json). `ctxkit --help`, `ctxkit run --help` and the other help texts the
// bundle answers without loading a command (issue 30, item 6): scripts/bundle-cli.mjs runs the
// bundle's own `main` for each of these command lines and writes what it printed, and its exit
// code, to dist/cli-bundle/help.json, with the compiled files that produced it. The binary prints
// that instead of loading the bundle.
// An installed package's help.json is the one `npm pack` shipped with its bundle: nothing on the
// user's machine bundles again, and npm gives each file the time it was unpacked, so times say
// nothing there. In a clone the bundle is made again when a compiled file changes, and the answer
// must also be what the bundle would print now: it is taken only if help.json was made with the
// bundle as it is (both files carry the time the bundling started) and none of the files it came
// from is newer (a dozen stats, where checking the whole bundle stats some 750 files). Anything
// else, a help.json that is not what the bundling writes included, is the CLI's to answer.
"use strict";
const { closeSync, fstatSync, openSync, readFileSync, statSync } = require("node:fs");

const helpFile = "dist/cli-bundle/help.json";
// The bundling writes some 20 KB; a bigger file is not one of its.
const maxHelpFileBytes = 1024 * 1024;

/** Only a command line that might be a help request reads the file: `ctxkit demo` must not pay for it. */
function mightAskForHelp(argv) {
  return argv.length <= 2 && (argv.length === 0 || argv.some((arg) => arg === "--help" || arg === "-h" || arg === "help"));
}

const mtimeOf = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isAnswer = (value) => isObject(value) && typeof value.stdout === "string" && typeof value.stderr === "string" && Number.isInteger(value.code);

/** help.json's text and its time, or undefined when there is none (a bundle made before it) or it is too big. */
function readHelpFile(path) {
  const fd = openSync(path, "r");
  try {
    const { size, mtimeMs } = fstatSync(fd);
    return size > maxHelpFileBytes ? undefined : { text: readFileSync(fd, "utf8"), madeAt: mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/**
 * What the CLI prints for exactly this command line, `{ stdout, stderr, code }`, or undefined when
 * help.json has no answer for it, may be out of date or cannot be read. `root` ends with a slash;
 * `inClone`: the compiled files may have changed since the bundle was made (an installed package's do not).
 */
function knownHelp(root, argv, inClone) {
  if (!mightAskForHelp(argv)) return undefined;
  try {
    const file = readHelpFile(root + helpFile);
    if (file === undefined) return undefined;
    const help = JSON.parse(file.text);
    const key = JSON.stringify(argv);
    // `commandLines`: the index in `answers` of each command line's answer (each distinct text is stored once).
    const index = isObject(help) && isObject(help.commandLines) && Object.hasOwn(help.commandLines, key) ? help.commandLines[key] : undefined;
    const answer = Number.isInteger(index) && Array.isArray(help.answers) ? help.answers[index] : undefined;
    if (!isAnswer(answer)) return undefined;
    if (inClone) {
      // Written by another bundling than the one main.cjs comes from (one under way, or an older script's).
      if (mtimeOf(`${root}dist/cli-bundle/main.cjs`) !== file.madeAt) return undefined;
      if (!Array.isArray(help.inputs) || help.inputs.length === 0) return undefined;
      for (const input of help.inputs) if (typeof input !== "string" || !((mtimeOf(root + input) ?? Infinity) <= file.madeAt)) return undefined;
    }
    return answer;
  } catch {
    return undefined; // none yet (ENOENT), unreadable (EACCES, ENOTDIR), not JSON: the CLI answers
  }
}

module.exports = { knownHelp, helpFile };
