import { nearestName } from "../types/nearest-name.js";

/**
 * Turns Node's `parseArgs` error into one sentence for a person: the flag that was not understood
 * and, when one is close, the flag they probably meant (`--modle` → "did you mean --model?").
 */
export function describeArgumentError(error: unknown, knownFlags: readonly string[]): string {
  const code = (error as { code?: string } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-{1,2}[^'\s]+)/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag !== undefined) {
    const suggestion = suggestFlag(flag, knownFlags);
    return `unknown option ${flag}${suggestion ? ` (did you mean ${suggestion}?)` : ""}.`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    // Node says "Option '-y, --yes' does not take an argument" for booleans, "Option '--model <value>' argument missing",
    // and "Option '--temperature' argument is ambiguous" when the value starts with a dash ("--max-iterations -3").
    const name = /--[a-z][\w-]*/i.exec(message)?.[0] ?? flag ?? "an option";
    if (/argument is ambiguous/.test(message)) return `option ${name} needs a value; write a value that starts with '-' as ${name}=<value>.`;
    return /argument missing/.test(message) ? `option ${name} needs a value.` : `option ${name} takes no value.`;
  }
  return `${message.replace(/\.$/, "")}.`;
}

// Other agent CLIs' words for ctxkit's flags: not typos, so no edit distance finds them.
const flagSynonyms: Record<string, string> = { resume: "session", "session-id": "session", cwd: "workspace", "api-base": "base-url", endpoint: "base-url" };

/** The known flag nearest to what was typed, if it is near enough to be a typo, or the flag another CLI's word stands for. */
export function suggestFlag(typed: string, knownFlags: readonly string[]): string | undefined {
  const name = typed.replace(/^-+/, "").split("=")[0]!;
  const candidates = knownFlags.flatMap((known) => [known, `no-${known}`]);
  if (name === "") return undefined;
  const synonym = Object.hasOwn(flagSynonyms, name) ? flagSynonyms[name]! : undefined;
  if (synonym !== undefined && knownFlags.includes(synonym)) return `--${synonym}`;
  const nearest = nearestName(name, candidates, Math.max(2, Math.floor(name.length / 3)));
  return nearest === undefined ? undefined : `--${nearest}`;
}
