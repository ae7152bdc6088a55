import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../types/index.js";
import { lintToolDefinitions } from "./lint-tool-definitions.js";

const good: ToolDefinition = {
  name: "cancel_order",
  description: "Cancels a pending order and refunds it.\nUse this only after the user confirmed the cancellation. Returns the updated order.",
  parameters: {
    type: "object",
    properties: {
      order_id: { type: "string", description: "The order id, like '#W123'." },
      reason: { type: "string", enum: ["no longer needed", "ordered by mistake"], description: "Why the user cancels." },
    },
    required: ["order_id", "reason"],
    additionalProperties: false,
  },
};

describe("lintToolDefinitions", () => {
  it("finds nothing in a well-described strict tool", () => {
    expect(lintToolDefinitions([good])).toEqual([]);
  });

  it("reports each problem with its code", () => {
    const bad: ToolDefinition = {
      name: "cancel_orders",
      description: "Cancel.",
      parameters: { type: "object", properties: { reason: { type: "string", description: "Must be one of 'a' or 'b'." }, note: { type: "string", maxLength: 20 } }, required: ["reason"] },
    };
    const codes = lintToolDefinitions([good, bad, { name: "x", description: "", parameters: { type: "object", properties: {} } }]).map((finding) => `${finding.code} ${finding.target ?? ""}`);
    expect(codes).toEqual([
      "one_line_description cancel_orders",
      "no_when_to_use cancel_orders",
      "enum_candidate cancel_orders.reason",
      "parameter_without_description cancel_orders.note",
      "strict_mode_rejects cancel_orders",
      "missing_description x",
      "strict_mode_rejects x",
      "near_duplicate_names cancel_order,cancel_orders",
    ]);
  });

  it("flags more than 20 tools", () => {
    const many = Array.from({ length: 21 }, (_, index) => ({ ...good, name: `tool_number_${String.fromCharCode(97 + index).repeat(3)}` }));
    expect(lintToolDefinitions(many).map((finding) => finding.code)).toContain("too_many_tools");
  });

  const corpus = "../shared/corpus/tau-bench";
  it.skipIf(!existsSync(`${corpus}/airline/tools.json`))("finds what the τ-bench schemas lack (corpus)", () => {
    for (const domain of ["airline", "retail"]) {
      const schemas = JSON.parse(readFileSync(`${corpus}/${domain}/tools.json`, "utf8")) as Array<{ function: ToolDefinition }>;
      const findings = lintToolDefinitions(schemas.map((schema) => schema.function));
      const counts: Record<string, number> = {};
      for (const finding of findings) counts[finding.code] = (counts[finding.code] ?? 0) + 1;
      // Printed for the reader of the test log: what the benchmark's own tool design gets wrong.
      process.stdout.write(`τ-bench ${domain} tools.json: ${JSON.stringify(counts)}\n`);
      // None of τ-bench's schemas set additionalProperties: false, so strict mode rejects every tool.
      expect(counts.strict_mode_rejects).toBe(schemas.length);
    }
  });
});
