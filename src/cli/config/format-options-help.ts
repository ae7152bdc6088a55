import type { FlagDeclaration, HelpGroup } from "./config-settings.js";

const groupTitles: Record<HelpGroup, string> = {
  Model: "Model:",
  "Workspace and session": "Workspace and session:",
  "Tools and context": "Tools and context:",
  Budget: "Budget (for the whole session, including what a resumed session already spent):",
};

const helpColumn = 28;
const width = 100;

/** The help line's left side: `--flag <value>`, `--flag, -f`, or the declared usage (`--no-sub-agents`). */
export function flagUsage(declaration: FlagDeclaration): string {
  if (declaration.usage) return declaration.usage;
  const value = declaration.value ?? (declaration.input === "switch" ? "" : "<value>");
  return `--${declaration.flag}${declaration.short ? `, -${declaration.short}` : ""}${value ? ` ${value}` : ""}`;
}

/**
 * The options section of `run`, `chat` and `config` --help, from the settings' table: one entry per
 * flag, grouped, its text wrapped at the help column.
 */
export function formatOptionsHelp(declarations: readonly FlagDeclaration[]): string {
  const sections: string[] = [];
  for (const group of Object.keys(groupTitles) as HelpGroup[]) {
    const entries = declarations.filter((declaration) => declaration.group === group && declaration.help);
    if (entries.length === 0) continue;
    const lines = entries.flatMap((declaration) => formatEntry(flagUsage(declaration), declaration.help!));
    sections.push(`${groupTitles[group]}\n${lines.join("\n")}\n`);
  }
  return sections.join("\n");
}

export function formatEntry(usage: string, text: string): string[] {
  const left = `  ${usage}`;
  const wrapped = wrap(text, width - helpColumn);
  const indent = " ".repeat(helpColumn);
  if (left.length < helpColumn - 1) return [`${left.padEnd(helpColumn)}${wrapped[0]}`, ...wrapped.slice(1).map((line) => `${indent}${line}`)];
  return [left, ...wrapped.map((line) => `${indent}${line}`)];
}

function wrap(text: string, columns: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}
