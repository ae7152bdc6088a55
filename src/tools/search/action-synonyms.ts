/**
 * Words people and models use for the same action or thing in tool catalogs, in general English
 * and developer usage (not any one catalog's). A query word is searched for itself and, at a lower
 * weight, for the other words of its groups: "go to" finds navigate, "add" finds create, "hit
 * escape" finds a tool that presses keys. Unix command names stand for what they do.
 */
const synonymGroups: readonly (readonly string[])[] = [
  ["create", "add", "make", "new", "insert", "post"],
  ["delete", "remove", "erase", "rm", "trash", "discard", "forget", "unlink"],
  ["update", "change", "edit", "modify", "set", "alter", "patch"],
  ["get", "retrieve", "fetch", "read", "show", "view", "display", "look", "load", "details"],
  ["list", "enumerate", "ls", "all"],
  ["search", "find", "lookup", "lookfor", "query", "locate", "grep", "seek"],
  ["navigate", "go", "goto", "visit", "browse", "url"],
  ["back", "previous", "prior"],
  ["close", "exit", "quit"],
  ["run", "execute", "exec", "evaluate", "eval", "launch", "invoke", "trigger"],
  ["press", "hit", "key", "keyboard", "escape", "esc", "enter", "return", "tab", "backspace", "arrow"],
  ["click", "tap"],
  ["type", "enter", "input", "write"],
  ["write", "save", "store", "overwrite"],
  ["move", "rename", "relocate", "mv"],
  ["copy", "duplicate", "cp"],
  ["directory", "folder", "mkdir"],
  ["create", "mkdir"],
  ["read", "cat", "open"],
  ["info", "metadata", "stat", "size", "detail"],
  ["size", "big", "large"],
  ["resize", "size", "dimension"],
  ["window", "viewport"],
  ["multiple", "several", "many", "batch", "bulk", "together", "both"],
  ["compress", "zip", "gzip", "archive"],
  ["wait", "pause", "sleep", "delay"],
  ["dialog", "alert", "popup", "prompt", "confirm", "modal"],
  ["select", "dropdown", "choose", "pick", "option"],
  ["upload", "attach"],
  ["comment", "reply"],
  ["user", "person", "people", "member", "account"],
  ["database", "table"],
  ["property", "column", "field", "attribute"],
  ["image", "picture", "png", "jpg", "jpeg", "photo"],
  ["sum", "plus", "add", "total"],
  ["calculate", "compute", "math"],
  ["think", "reason", "reflect"],
  ["baggage", "bag", "luggage", "suitcase"],
  ["direct", "nonstop"],
  ["return", "refund"],
  ["human", "person", "agent", "representative"],
  ["log", "console", "logging"],
  ["request", "call", "xhr"],
  ["screenshot", "capture"],
];

/**
 * Short forms that mean exactly their long form: searched at full weight, unlike synonyms.
 */
const abbreviations: Readonly<Record<string, string>> = {
  repo: "repository",
  pr: "pull request",
  dir: "directory",
  env: "environment",
  js: "javascript",
  ts: "typescript",
  md: "markdown",
  db: "database",
  msg: "message",
  info: "information",
  config: "configuration",
  img: "image",
  doc: "document",
  docs: "documentation",
};

/** Each abbreviation → the words of its long form. */
export function buildAbbreviationTable(): Map<string, string[]> {
  return new Map(Object.entries(abbreviations).map(([short, long]) => [short, long.split(" ")]));
}

/** Each word → the other words of its groups (raw words; the index stems them as it stems text). */
export function buildSynonymTable(groups: readonly (readonly string[])[] = synonymGroups): Map<string, string[]> {
  const table = new Map<string, Set<string>>();
  for (const group of groups) {
    for (const word of group) {
      const others = table.get(word) ?? new Set<string>();
      for (const other of group) if (other !== word) others.add(other);
      table.set(word, others);
    }
  }
  return new Map([...table].map(([word, others]) => [word, [...others]]));
}
