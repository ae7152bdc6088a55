import { describe, expect, it } from "vitest";
import { definePrompt } from "./define-prompt.js";
import type { PromptDefinition } from "./prompt-definition.js";

const definition: PromptDefinition = {
  format: "markdown",
  role: "You are a support agent for Acme.",
  sop: ["Identify the user.", "Check the request against the rules.", "Confirm, then act."],
  rules: [{ scope: "Refunds", action: "Refund to the original payment method.", exception: "Gift cards are refunded at once.", verify: "The order is delivered." }],
  tools: [{ name: "refund_order", whenToUse: "After the user confirmed a refund." }],
  examples: [{ user: "Refund order 7.", assistant: "Let me look up order 7 first." }],
  session: { user: "Ada Lovelace", plan: "gold" },
};

describe("definePrompt", () => {
  it("renders the same bytes for the same definition, with the session facts after the cache boundary", () => {
    const first = definePrompt(definition);
    expect(definePrompt(structuredClone(definition))).toEqual(first);
    expect(first.staticText).toBe(
      "# Role\n\nYou are a support agent for Acme.\n\n## Procedure\n\nFollow these steps in order:\n\n1. Identify the user.\n2. Check the request against the rules.\n3. Confirm, then act.\n\n" +
        "## Rules\n\n- **Refunds**: Refund to the original payment method.\n  - Exception: Gift cards are refunded at once.\n  - Verify: The order is delivered.\n\n" +
        "## Tools\n\n- `refund_order`: After the user confirmed a refund.\n\n## Examples\n\n### Example 1\n\nUser: Refund order 7.\n\nAssistant: Let me look up order 7 first.\n",
    );
    expect(first.staticText).not.toContain("Ada");
    expect(first.sessionText).toBe("## This session\n\n- user: Ada Lovelace\n- plan: gold\n");
    expect(first.findings).toEqual([]);
  });

  it("renders XML with escaped text", () => {
    const xml = definePrompt({ ...definition, format: "xml", rules: [{ scope: "A & B", action: "Say <yes>." }] });
    expect(xml.staticText).toContain('<rule scope="A &amp; B">\n    <action>Say &lt;yes&gt;.</action>\n  </rule>');
    expect(xml.staticText).toContain('<step n="2">Check the request against the rules.</step>');
    expect(xml.sessionText).toBe('<session>\n  <fact name="user">Ada Lovelace</fact>\n  <fact name="plan">gold</fact>\n</session>\n');
  });

  it("flags a pile of rules without a procedure, and dates in the static part", () => {
    const findings = definePrompt({ format: "markdown", role: "Today is 2024-05-15.", sop: [], rules: definition.rules }).findings.map((finding) => finding.code);
    expect(findings).toEqual(["rules_without_sop", "dynamic_value_in_static_part"]);
  });
});

// From plain JavaScript (or through a cast) definePrompt({}) failed with a TypeError from inside the
// renderer ("Cannot read properties of undefined (reading 'trim')"). Each is a ConfigError naming the option now.
describe("definePrompt's definition, checked before rendering", () => {
  const refusal = (value: unknown) => {
    try {
      definePrompt(value as PromptDefinition);
    } catch (error) {
      return error;
    }
    throw new Error("the definition was accepted");
  };

  it("names the missing option", () => {
    expect(refusal({})).toMatchObject({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining("definePrompt needs `role`") });
    expect(refusal({ role: "r" })).toMatchObject({ code: "option_invalid", message: expect.stringContaining("definePrompt needs `sop`") });
    expect(refusal({ role: "r", sop: [] })).toMatchObject({ code: "option_invalid", message: expect.stringContaining("definePrompt needs `rules`") });
    expect(refusal({ role: "r", sop: [], rules: [] })).toMatchObject({ code: "option_invalid", message: 'definePrompt needs `format`: "markdown" or "xml"; got undefined.' });
    expect(refusal(undefined)).toMatchObject({ code: "option_invalid", message: expect.stringContaining("definePrompt needs a definition object") });
  });

  it("names the item of a list that lacks a field", () => {
    expect(refusal({ ...definition, rules: [{ scope: "Refunds" }] })).toMatchObject({ code: "option_invalid", message: expect.stringContaining("definePrompt's rules[0] needs `action`") });
    expect(refusal({ ...definition, tools: [{ name: "refund_order" }] })).toMatchObject({ code: "option_invalid", message: expect.stringContaining("definePrompt's tools[0] needs `whenToUse`") });
    expect(refusal({ ...definition, rules: [{ scope: "Refunds", action: "Refund.", verify: 3 }] })).toMatchObject({ code: "option_invalid", message: expect.stringContaining("definePrompt's rules[0].verify must be a string") });
    expect(refusal({ ...definition, rules: [{ scope: "Refunds", action: "Refund.", exception: ["None."] }] })).toMatchObject({ code: "option_invalid", message: expect.stringContaining("definePrompt's rules[0].exception must be a string") });
    expect(refusal({ ...definition, sop: "Identify the user." })).toMatchObject({ code: "option_invalid", message: expect.stringContaining("definePrompt needs `sop`: a list of strings") });
  });
});
