import { configSettings, invocationFlags, type FlagDeclaration } from "./config/config-settings.js";
import { formatOptionsHelp } from "./config/format-options-help.js";

// Invocation flags first in their group (the workspace and session come before where they are stored).
const declarations = [...invocationFlags, ...Object.values(configSettings)].filter((declaration): declaration is FlagDeclaration & typeof declaration => "flag" in declaration);

let formatted: string | undefined;

/**
 * The options `run`, `chat` and `config` share, generated from the settings' table (see
 * config-settings.ts). Formatted when first asked for: a run that is not asked for help does not
 * pay for it (milliseconds of its start).
 */
export function agentOptionsHelp(): string {
  formatted ??= formatOptionsHelp(declarations);
  return formatted;
}

/** The help of some of those options (a benchmark's model flags), in the same words and order. */
export function agentOptionsHelpFor(flags: readonly string[]): string {
  return formatOptionsHelp(declarations.filter((declaration) => flags.includes(declaration.flag)));
}
