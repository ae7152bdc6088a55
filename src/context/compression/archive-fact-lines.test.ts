import { describe, expect, it } from "vitest";
import { extractFactLines, isNumberOnlyLine } from "./extract-fact-lines.js";
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

  it("keeps a second line for an identifier an earlier turn of the archive showed only after the new facts, when room is left", () => {
    const later = "    NonDataDescriptorMixin,\n    RuntimeInstanceAttributeMixin,";
    const shown = (identifier: string) => identifier === "NonDataDescriptorMixin";
    // Short of room: the line new only for a shown identifier goes first, though it comes first.
    expect(extractFactLines(later, { maxChars: 35, isShown: shown })).toEqual(["RuntimeInstanceAttributeMixin,"]);
    // With room for both, both, in order.
    expect(extractFactLines(later, { maxChars: 1000, isShown: shown })).toEqual(["NonDataDescriptorMixin,", "RuntimeInstanceAttributeMixin,"]);
    // In an archive, what an earlier turn kept counts as shown for the later ones.
    const sources = [
      turn("m_2", "grep -n 'class .*Mixin' autodoc.py", "2264:class NonDataDescriptorMixin(DataDocumenterMixinBase):"),
      turn("m_4", "sed -n 2700,2701p autodoc.py", later),
    ];
    const lines = summarizeTurns({ purpose: "turns", sources, maxTokens: 400 });
    expect(lines).toContain("2264:class NonDataDescriptorMixin(DataDocumenterMixinBase):");
    expect(lines).toContain("  RuntimeInstanceAttributeMixin,");
  });

  it("counts as shown only the identifiers a long line's kept window holds with their context", () => {
    const record = `{"user_id": "daiki_muller_1116", ${Array.from({ length: 30 }, (_, index) => `"field_${index}": "value"`).join(", ")}, "last_four": "2135"}`;
    const shownIdentifiers: string[] = [];
    const facts = extractFactLines(record, { maxChars: 320, onShownIdentifier: (identifier) => shownIdentifiers.push(identifier) });
    expect(facts).toHaveLength(1);
    expect(shownIdentifiers).toContain("daiki_muller_1116");
    // In the record, but cut off (or missing) from the one window that fitted.
    expect(shownIdentifiers).not.toContain("2135");
  });

  it("keeps lines that name something before lines whose only new identifiers are numbers when the room runs out", () => {
    const listing = ["2153\t            return", "2154\t        else:", "2155\t            pass", "2167\t        if self._interactive and self._rect.get_visible():", "2168\t            self._set_active_handle(event)"].join("\n");
    const facts = extractFactLines(listing, { maxChars: 120 });
    expect(facts).toEqual(["2167\t        if self._interactive and self._rect.get_visible():", "2168\t            self._set_active_handle(event)"]);
    // With room for all, every line, in order.
    expect(extractFactLines(listing, { maxChars: 1000 })).toEqual(listing.split("\n"));
    // Errors still come first, numbers or not.
    expect(extractFactLines(`2154\t        else:\nError 2161: exit 1\n${"2167\t        if self._interactive and self._rect.get_visible():"}`, { maxChars: 30 })).toEqual(["Error 2161: exit 1"]);
  });

  it("tells a number-only line from one that names something", () => {
    expect(isNumberOnlyLine("2154\t        else:")).toBe(true);
    expect(isNumberOnlyLine("-rw-r--r-- 1 root root 1,024 Mar  2 2025")).toBe(true);
    expect(isNumberOnlyLine("2168\t            self._set_active_handle(event)")).toBe(false);
    expect(isNumberOnlyLine("commit 3f2a9c1e")).toBe(false);
    expect(isNumberOnlyLine("FAILED at 2154")).toBe(false);
    expect(isNumberOnlyLine("no identifiers here")).toBe(false);
  });
});
