import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadChatTemplateFile } from "./load-chat-template-file.js";
import { getQwen3ChatTemplate } from "./qwen3-chat-template.js";

const template = "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}";
let directory = "";

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxkit-template-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function file(name: string, content: string): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, content);
  return path;
}

describe("loadChatTemplateFile", () => {
  it("reads a .jinja file as the template itself", async () => {
    expect(await loadChatTemplateFile(await file("chat_template.jinja", template))).toBe(template);
    const qwen3 = getQwen3ChatTemplate();
    expect(await loadChatTemplateFile(await file("qwen3.jinja", qwen3))).toBe(qwen3);
  });

  it("reads chat_template from a tokenizer_config.json", async () => {
    const path = await file("tokenizer_config.json", JSON.stringify({ eos_token: "</s>", chat_template: template }));
    expect(await loadChatTemplateFile(path)).toBe(template);
  });

  it("picks a named template from a list", async () => {
    const config = { chat_template: [{ name: "default", template }, { name: "tool_use", template: "{{ tools }}" }] };
    const path = await file("named.json", JSON.stringify(config));
    expect(await loadChatTemplateFile(path)).toBe(template);
    expect(await loadChatTemplateFile(path, { name: "tool_use" })).toBe("{{ tools }}");
    await expect(loadChatTemplateFile(path, { name: "rag" })).rejects.toThrow(/no chat template named 'rag'. Available: default, tool_use/);
  });

  it("fails with template_invalid for a missing file, a config without a template, or broken Jinja", async () => {
    await expect(loadChatTemplateFile(join(directory, "missing.jinja"))).rejects.toMatchObject({ code: "template_invalid" });
    const noTemplate = await file("config.json", JSON.stringify({ eos_token: "</s>" }));
    await expect(loadChatTemplateFile(noTemplate)).rejects.toThrow(/no "chat_template" string/);
    const notJson = await file("broken.json", "{ nope");
    await expect(loadChatTemplateFile(notJson)).rejects.toThrow(/not valid JSON/);
    const broken = await file("broken.jinja", "{% if messages %}unclosed");
    await expect(loadChatTemplateFile(broken)).rejects.toMatchObject({ code: "template_invalid" });
  });
});
