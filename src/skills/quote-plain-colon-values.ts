/**
 * The most common broken frontmatter in shared skills: a plain top-level value holding ': '
 * (`description: Use when: the user asks…`), which strict YAML reads as a nested mapping. Claude
 * Code accepts such files; the Agent Skills client guide suggests retrying with the value quoted.
 * This returns the frontmatter with each such value (and its indented continuation lines) put in
 * single quotes, and the keys it quoted; nothing when no line looks like that. Pure.
 */
export function quotePlainColonValues(frontmatter: string): { text: string; keys: string[] } | undefined {
  const lines = frontmatter.split("\n");
  const keys: string[] = [];
  const out: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    // A top-level key with a plain value: not quoted, not a block scalar, flow collection, anchor, alias or tag.
    const match = /^([A-Za-z0-9_-]+):[ \t]+(?![ \t"'|>[{&*!#%@`])(.*)$/.exec(line);
    if (!match) {
      out.push(line);
      continue;
    }
    // The plain scalar goes on over the following indented, non-empty lines.
    let end = index;
    while (end + 1 < lines.length && /^[ \t]+\S/.test(lines[end + 1]!)) end += 1;
    const value = [match[2]!, ...lines.slice(index + 1, end + 1)];
    if (!value.some((part) => /:[ \t]/.test(part))) {
      out.push(line);
      continue;
    }
    keys.push(match[1]!);
    const quoted = value.map((part) => part.replace(/'/g, "''"));
    quoted[0] = `${match[1]}: '${quoted[0]}`;
    quoted[quoted.length - 1] = `${quoted.at(-1)!.trimEnd()}'`;
    out.push(...quoted);
    index = end;
  }
  return keys.length === 0 ? undefined : { text: out.join("\n"), keys };
}
