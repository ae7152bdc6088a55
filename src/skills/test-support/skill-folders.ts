import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** Writes `<root>/<folder>/SKILL.md` (and extra files) for tests; returns the root. */
export async function writeSkillFolders(folders: Record<string, string | Record<string, string>>, root?: string): Promise<string> {
  const base = root ?? (await mkdtemp(path.join(tmpdir(), "ctxkit-skills-")));
  for (const [folder, content] of Object.entries(folders)) {
    const files = typeof content === "string" ? { "SKILL.md": content } : content;
    for (const [file, text] of Object.entries(files)) {
      const target = path.join(base, folder, file);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
  }
  return base;
}

/** A SKILL.md with the given frontmatter fields and body. */
export function skillMarkdown(name: string, description: string, body = `# ${name}\n\nStep 1: do the thing.`): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${body}\n`;
}
