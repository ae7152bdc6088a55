import { describe, expect, it } from "vitest";
import type { Message } from "../../types/index.js";
import { applyEdits } from "../compose-context-policies.js";
import { createCompressionPolicy } from "./create-compression-policy.js";
import { KEPT_LINES_HEADING, createSummaryMessage, findCompactionRange } from "./full-compaction.js";
import type { Summarizer, SummaryInput } from "./summarizer.js";
import { assistantMessage, contextState, toolMessage, userMessage } from "./test-support/trajectory-builder.js";

const now = new Date("2026-01-01T00:00:00.000Z");

function turn(id: string, command: string, output: string): Message[] {
  return [assistantMessage(`a${id}`, "", [{ id: `c${id}`, name: "bash", arguments: { command } }]), toolMessage(`t${id}`, `c${id}`, "bash", output)];
}

/** Reads of one growing module, turns `from` to `to`: only a summary brings a long run under the floor. */
function reads(from: number, to: number): Message[] {
  const messages: Message[] = [];
  for (let index = from; index <= to; index += 1) messages.push(...turn(String(index), `sed -n ${index}p src/payment.py`, `${index}: charge_${index} = gateway.charge(order_${index}.total)`));
  return messages;
}

function capturing(): { inputs: SummaryInput[]; summarizer: Summarizer } {
  const inputs: SummaryInput[] = [];
  const summarizer: Summarizer = { name: "model", summarize: async (input) => (inputs.push(input), "## Goal\n- Fix the payment callback bug.\n## Progress\n- read src/payment.py") };
  return { inputs, summarizer };
}

describe("the previous summary a full compaction merges with", () => {
  it("is sent to the summariser without the lines kept beside it, which the next summary carries on its own", async () => {
    const { inputs, summarizer } = capturing();
    const policy = createCompressionPolicy("ctxkit", { contextWindow: 8000, keepRecentTokens: 0, summarizer });
    const first = [userMessage("u0", "Fix the payment callback bug."), ...reads(1, 300)];
    const compacted = applyEdits(first, (await policy.prepareContext!(contextState(first)))!);
    const summary = compacted.find((message) => message.meta.derived?.kind === "summary")!;
    const keptLines = summary.meta.derived?.kind === "summary" ? (summary.meta.derived.keptLines ?? []) : [];
    expect(keptLines.length).toBeGreaterThan(0);

    const second = [...compacted, ...reads(301, 600)];
    const again = applyEdits(second, (await policy.prepareContext!(contextState(second)))!);
    expect(again.filter((message) => message.meta.derived?.kind === "summary")).toHaveLength(1);
    const previous = inputs[1]?.previousSummary;
    expect(previous).toContain("## Progress\n- read src/payment.py");
    expect(previous).not.toContain(KEPT_LINES_HEADING);
    for (const line of keptLines) expect(previous).not.toContain(line);
  });

  it("keeps a summary's own text that only looks like the kept lines' heading", () => {
    const text = `## Goal\n- Quote the docs.\n## Progress\n- wrote "${KEPT_LINES_HEADING}" into README.md`;
    const kept = ["- a1: bash {\"command\":\"cat a.py\"} → ok", "  x = 1"];
    const messages = [userMessage("u0", "Quote the docs."), ...reads(1, 2)];
    const range = findCompactionRange(messages, 1, messages.length)!;
    const summary = createSummaryMessage(range, text, "a1", "t2", 1, now, [], kept, []);
    const withSummary = [messages[0]!, summary, ...reads(3, 4)];
    const previous = findCompactionRange(withSummary, 1, withSummary.length)!.previousSummary!;
    expect(previous).toContain(`wrote "${KEPT_LINES_HEADING}" into README.md`);
    expect(previous).not.toContain("  x = 1");
  });
});
