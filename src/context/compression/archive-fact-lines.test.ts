import { describe, expect, it } from "vitest";
import { extractIdentifiers } from "./extract-identifiers.js";
import { summarizeTurns } from "./sectioned-summary.js";
import type { SummarySource } from "./summarizer.js";

// The observation format of mini-swe-agent (real runs in the corpus wrap every result this way).
const wrapped = (output: string) => `<returncode>0</returncode>\n<output>\n${output}\n</output>`;

const turn = (label: string, command: string, output: string): SummarySource => ({
  label,
  kind: "assistant",
  text: `bash {"command":${JSON.stringify(command)}} → ok\nresult bash: ${wrapped(output)}`,
  messageId: label,
});

describe("archive fact lines", () => {
  it("takes no closing tag of markup for a path, and still finds rooted paths", () => {
    expect(extractIdentifiers("<returncode>0</returncode>")).toEqual([]);
    expect(extractIdentifiers("</output>")).toEqual([]);
    expect(extractIdentifiers("cd /testbed && ls </output>")).toEqual(["/testbed"]);
  });

  it("keeps no line that is only the markup around a result", () => {
    const lines = summarizeTurns({ purpose: "turns", sources: [turn("m_2", "grep -n get_inlines admin.py", "583:    def get_inline_instances(self, request, obj=None):")], maxTokens: 400 });
    expect(lines).toContain("583:    def get_inline_instances(self, request, obj=None):".trim());
    expect(lines).not.toContain("</output>");
    expect(lines).not.toContain("<returncode>");
  });

  it("does not repeat a line an earlier turn of the archive or the visible context already holds", () => {
    const listing = "584\t        inline_instances = []\n585\t        for inline_class in self.inlines:";
    const lines = summarizeTurns({
      purpose: "turns",
      sources: [turn("m_2", "sed -n 584,585p options.py", listing), turn("m_4", "sed -n 584,586p options.py", `${listing}\n586\t            inline = inline_class(self.model)`)],
      known: "  585\t        for inline_class in self.inlines:",
      maxTokens: 400,
    });
    expect(lines.split("584\t        inline_instances = []".trim()).length).toBe(2);
    // Known from the context (an indented archive line), so neither turn keeps it: lines compare trimmed.
    expect(lines).not.toContain("for inline_class in self.inlines:");
    expect(lines).toContain("586\t            inline = inline_class(self.model)".trim());
  });

  it("keeps the line the tool returned for an identifier, not the model's narration that names it", () => {
    const narrated: SummarySource = {
      label: "m_6",
      kind: "assistant",
      text:
        'bash {"command":"grep -n resolve_lookup_value query.py"} → ok\n' +
        "said: THOUGHT: `resolve_lookup_value` in `django/db/models/sql/query.py` probably needs to unwrap lazy objects; let me find it.\n" +
        `result bash: ${wrapped("1066:    def resolve_lookup_value(self, value, can_reuse, allow_joins):")}`,
      messageId: "m_6",
    };
    const lines = summarizeTurns({ purpose: "turns", sources: [narrated], maxTokens: 400 });
    expect(lines).toContain("1066:    def resolve_lookup_value(self, value, can_reuse, allow_joins):");
    expect(lines).not.toContain("THOUGHT");
    expect(lines.startsWith('- m_6: bash {"command":"grep -n resolve_lookup_value query.py"} → ok')).toBe(true);
  });
});
