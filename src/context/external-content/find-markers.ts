import { createNormalisedView } from "./normalised-view.js";

/**
 * What a marker is: a boundary of an external-content block, one of the harness's own tags (the
 * status bar, its checkpoints), or a chat-template token or role/thinking tag that switches who is
 * speaking.
 */
export type MarkerKind = "external" | "harness" | "role";

export interface MarkerMatch {
  kind: MarkerKind;
  /** The canonical name, e.g. `external_content`, `agent_status`, `|im_start|`, `think`, `inst`. */
  name: string;
  closing: boolean;
  /** The span in the original text. */
  start: number;
  end: number;
  /** An external tag's `id` attribute, when it has one (lower case). */
  id?: string;
  /** An external tag's `source` attribute, when it has one. */
  source?: string;
}

// Between the words of a name, any short run of non-letters: `external_content`, `external:content`,
// `external/content`, `external+content`. Bounded, so a long run of punctuation costs nothing.
const separator = "[^a-z0-9<>]{0,6}";
// Letters the confusables skeleton folds together (`ӏ` → `i` though it looks like `l`; `rn` looks like `m`).
const letter = (character: string) => (character === "l" || character === "i" ? "[il]" : character === "m" ? "(?:m|rn)" : character);
const spell = (part: string) => [...part].map(letter).join("");
const word = (name: string) => name.split("_").map(spell).join(separator);

const harnessNames = ["agent_status", "status_checkpoint"];
// Role, thinking and tool tags of common chat templates (ChatML/Qwen, Llama 2/3, Gemma, Mistral,
// DeepSeek, Hermes tool calls) and the bare role names some prompts use as tags.
const roleNames = [
  "im_start", "im_end", "im_sep", "start_of_turn", "end_of_turn", "start_header_id", "end_header_id", "eot_id", "begin_of_text",
  "end_of_text", "endoftext", "think", "thinking", "reasoning", "tool_call", "tool_calls", "tool_response", "tool_result",
  "function_call", "function_results", "system", "user", "assistant", "human", "developer", "tool", "ipython", "sys", "bos", "eos", "s",
];
const bracketNames = ["inst", "sys", "system_prompt", "tool_calls", "tool_results", "available_tools", "/inst"];

const tagName = `(${word("external_content")}|${harnessNames.map(word).join("|")}|${roleNames.map(word).join("|")})`;
// `<` (any disguise, already folded by the view), slashes, backslashes and whitespace (a lenient reader
// takes `<//external_content>` or `<\\/think>` for a closing tag too), a known name, then anything but a
// letter or digit: `</ExTeRnAl - content id="…">`, `< think >`, `<|im_start|>`, `<｜begin▁of▁sentence｜>`.
const angleMarker = new RegExp(`<([\\s/\\\\]*)(?:${tagName}(?![a-z0-9])|(\\|)\\s*(?=[a-z_|]))`, "g");
const bracketMarker = new RegExp(`\\[\\s*(/?)\\s*(${bracketNames.map(word).join("|")})\\s*\\]`, "g");
const doubleAngleSys = /<<\s*\/?\s*sys\s*>>/g;

const angleNames = ["external_content", ...harnessNames, ...roleNames];
const exactly = (names: readonly string[]) => names.map((name) => ({ name, pattern: new RegExp(`^${word(name)}$`) }));
const anglePatterns = exactly(angleNames);
const bracketPatterns = exactly(bracketNames);

/** The known name a matched spelling stands for (`externaI:content` → `external_content`). */
function canonicalName(spelled: string, names: readonly string[] = angleNames): string {
  const patterns = names === bracketNames ? bracketPatterns : anglePatterns;
  return patterns.find((entry) => entry.pattern.test(spelled))?.name ?? spelled.replace(/[^a-z0-9/]+/g, "_");
}

/**
 * The model-side marker grammar: every place in `text` a lenient reader would take for a marker
 * (see `MarkerMatch`), in order. Text ctxkit wrapped must parse to exactly its own two boundaries;
 * anything else found in it is a forgery (what the neutraliser removes and the fuzzer hunts for).
 */
export function findMarkers(text: string): MarkerMatch[] {
  const view = createNormalisedView(text);
  const matches: MarkerMatch[] = [];
  const spanOf = (from: number, to: number) => ({ start: view.start[from]!, end: view.end[to - 1]! });
  for (const match of view.text.matchAll(angleMarker)) {
    const from = match.index;
    const closing = /[/\\]/.test(match[1]!);
    if (match[3] === "|") {
      // A special token `<|name|>`: the span runs to the closing `|>` when there is one nearby.
      const tail = /^[^<>\n]{0,48}?\|\s*>/.exec(view.text.slice(from + match[0].length));
      const to = from + match[0].length + (tail ? tail[0].length : 0);
      const name = view.text.slice(from, to).replace(/[\s<>]/g, "");
      matches.push({ kind: "role", name: name || "|", closing, ...spanOf(from, to) });
      continue;
    }
    const name = canonicalName(match[2]!);
    const kind: MarkerKind = name === "external_content" ? "external" : harnessNames.includes(name) ? "harness" : "role";
    // The attributes, up to the tag's `>` when it closes before another `<` (ids are read from here).
    const attributes = /^[^<>]{0,300}>/.exec(view.text.slice(from + match[0].length));
    const to = from + match[0].length + (attributes ? attributes[0].length : 0);
    const marker: MarkerMatch = { kind, name, closing, ...spanOf(from, to) };
    if (kind === "external" && attributes) {
      const id = /\bid\s*=\s*["']?([a-z0-9_-]+)/.exec(attributes[0]);
      if (id) marker.id = id[1]!;
      const source = /\bsource\s*=\s*["']?([a-z0-9_.:-]+)/.exec(attributes[0]);
      if (source) marker.source = source[1]!;
    }
    matches.push(marker);
  }
  for (const match of view.text.matchAll(bracketMarker)) {
    const name = canonicalName(match[2]!, bracketNames).replace(/^\//, "");
    matches.push({ kind: "role", name, closing: match[1] === "/" || match[2]!.startsWith("/"), ...spanOf(match.index, match.index + match[0].length) });
  }
  for (const match of view.text.matchAll(doubleAngleSys)) {
    matches.push({ kind: "role", name: "<<sys>>", closing: match[0].includes("/"), ...spanOf(match.index, match.index + match[0].length) });
  }
  return matches.sort((left, right) => left.start - right.start);
}
