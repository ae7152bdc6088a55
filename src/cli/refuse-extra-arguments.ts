import { ConfigError } from "../types/index.js";
import { parseCommandLine, type CommandOptions } from "./cli-options.js";

/**
 * Words past the ones a command takes are a usage error (exit 2, with its help), never dropped:
 * `ctxkit chat "fix the test"` started an empty chat and `ctxkit sessions show a b` showed only a.
 * `takes` says, in the command's words, what it does take.
 */
export function refuseExtraArguments(positionals: readonly string[], allowed: number, takes: string): void {
  const extra = positionals.slice(allowed);
  if (extra.length === 0) return;
  const words = extra.map((word) => `'${word}'`).join(" ");
  throw new ConfigError("usage_invalid", `unexpected argument${extra.length === 1 ? "" : "s"} ${words}: ${takes}.`);
}

/** For a command that takes only options (every benchmark): a word given (`bench kv-cache 500`) is refused, not dropped. */
export function refuseWordsOf(args: string[], options: CommandOptions, command: string): void {
  const { flags, positionals } = parseCommandLine(args, options);
  if (!flags.help) refuseExtraArguments(positionals, 0, `ctxkit ${command} takes only options (see ctxkit ${command} --help)`);
}
