import { createLazyRequire } from "../../types/lazy-require.js";
import type { RE2JS as RE2JSClass } from "re2js";
import { ToolError } from "../tool.js";

const requireFromHere = createLazyRequire(import.meta.url);
let re2: typeof RE2JSClass | undefined;

/** re2js is loaded by the first glob, not when the tools are created (the CLI's start-up). */
function loadRe2(): typeof RE2JSClass {
  re2 ??= (requireFromHere("re2js") as typeof import("re2js")).RE2JS;
  return re2;
}

/** A compiled glob; `test` runs in time linear in the subject's length. */
export interface GlobMatcher {
  test(subject: string): boolean;
}

/**
 * Compiles a glob into an anchored RegExp over `/`-separated relative paths. Supported: `**` (any
 * number of directories, as a whole path segment), `*` and `?` (within one segment), `{a,b}`
 * alternatives (nestable), `[abc]` / `[a-z]` / `[!x]` classes and `\` escapes. Unlike a shell, `*`
 * also matches names starting with a dot (`*.yml` matches `.travis.yml`): the model rarely means to
 * exclude them.
 *
 * The expression runs on RE2 (re2js), not the JavaScript engine: a model's `*a*a*a*a*a*a*b` compiles
 * to nested `[^/]*` runs that backtrack exponentially on a long name, and RE2 matches in linear time.
 */
export function globToRegExp(pattern: string): GlobMatcher {
  let source = "";
  let braceDepth = 0;
  let index = 0;
  while (index < pattern.length) {
    const character = pattern[index] as string;
    if (character === "*") {
      let end = index;
      while (pattern[end] === "*") end += 1;
      const startsSegment = index === 0 || pattern[index - 1] === "/";
      const endsSegment = end === pattern.length || pattern[end] === "/";
      if (end - index >= 2 && startsSegment && endsSegment) {
        if (pattern[end] === "/") {
          source += "(?:.*/)?";
          end += 1;
        } else {
          source += ".*";
        }
      } else {
        source += "[^/]*";
      }
      index = end;
      continue;
    }
    if (character === "?") source += "[^/]";
    else if (character === "{") {
      source += "(?:";
      braceDepth += 1;
    } else if (character === "}" && braceDepth > 0) {
      source += ")";
      braceDepth -= 1;
    } else if (character === "," && braceDepth > 0) source += "|";
    else if (character === "[") {
      const close = pattern.indexOf("]", index + 2);
      if (close === -1) source += "\\[";
      else {
        source += characterClass(pattern.slice(index + 1, close));
        index = close;
      }
    } else if (character === "\\" && index + 1 < pattern.length) {
      index += 1;
      source += escapeRegExp(pattern[index] as string);
    } else source += escapeRegExp(character);
    index += 1;
  }
  if (braceDepth > 0) {
    throw new ToolError("invalid_arguments", `Glob pattern '${pattern}' has an unclosed '{'; close every '{a,b}' group.`);
  }
  try {
    const RE2JS = loadRe2();
    const compiled = RE2JS.compile(`^${source}$`, RE2JS.DOTALL);
    return { test: (subject) => compiled.matches(subject) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError("invalid_arguments", `Glob pattern '${pattern}' cannot be compiled (${reason}); check its [...] classes.`);
  }
}

/** Whether a glob has no directory part, so it is meant to match a file's name (as in grep's `include`). */
export function isNameOnlyGlob(pattern: string): boolean {
  return !pattern.includes("/");
}

function characterClass(body: string): string {
  const negated = body.startsWith("!") || body.startsWith("^");
  const members = (negated ? body.slice(1) : body).replace(/\\/g, "\\\\").replace(/\]/g, "\\]");
  // A class never matches the separator, as in every glob implementation.
  return negated ? `[^/${members}]` : `[${members}]`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
