import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { inheritPolicies } from "../context/compose-policy-gates.js";
import { shippedPolicies } from "./test-support/shipped-policies.js";

const hookLine = /^\s+(processToolResult|prepareContext|routeToolCall|processUserMessage|onToolCall|beforeCall|onFinalText|afterCall|startRun)\b|^\s+(async )?(tail|system|checkpoint|processToolResult|prepareContext)\(/m;
// The composer and the loop hold hooks too, but make no policy of their own; the replay's summary
// recorder has a `beforeCall` field that is a call number; the session-file battery's compactor is
// a one-off of that benchmark (it replaces messages at a fixed call), not a policy ctxkit ships.
const notPolicyMakers = new Set(["src/context/compose-context-policies.ts", "src/loop/execute-tool-calls.ts", "src/bench/replay/summary-calls.ts", "src/bench/hardening/session-file-battery.ts"]);

/** Source files that make a context policy: an object with a `name` and at least one policy hook. */
function filesMakingPolicies(): string[] {
  const files = execFileSync("git", ["ls-files", "src/*.ts"], { encoding: "utf8" }).split("\n").filter(Boolean);
  return files.filter((file) => {
    if (file.endsWith(".test.ts") || file.includes("test-support") || notPolicyMakers.has(file)) return false;
    const text = readFileSync(file, "utf8");
    return /^\s+name: /m.test(text) && hookLine.test(text);
  });
}

describe("policy inheritance", () => {
  it("lists every shipped policy with the rule a child inherits it by", () => {
    const rules = Object.fromEntries(shippedPolicies.map((entry) => [entry.name, entry.create("/tmp").inherit]));
    expect(rules).toEqual(Object.fromEntries(shippedPolicies.map((entry) => [entry.name, entry.inherit])));
    for (const entry of shippedPolicies) expect(entry.create("/tmp").name, entry.file).toBe(entry.name);
  });

  it("has every file that makes a policy in the list (a new policy must declare its rule and join the suite)", () => {
    const listed = new Set(shippedPolicies.map((entry) => entry.file));
    const unlisted = filesMakingPolicies().filter((file) => !listed.has(file));
    expect(unlisted, "add these policies to src/agents/test-support/shipped-policies.ts with their `inherit` rule").toEqual([]);
    for (const file of listed) expect(readFileSync(file, "utf8"), `${file} declares no inherit rule`).toMatch(/inherit: "(share|copy|never)"/);
  });

  it("gives a child the shared instance, the policy's own copy, or nothing, by each rule", () => {
    const policies = shippedPolicies.map((entry) => entry.create("/tmp"));
    for (const kind of ["task", "fork"] as const) {
      const inherited = inheritPolicies(policies, { kind, name: "child" });
      for (const policy of policies) {
        const got = inherited.find((candidate) => candidate.name === policy.name);
        if (policy.inherit === "share") expect(got, policy.name).toBe(policy);
        if (policy.inherit === "never") expect(got, policy.name).toBeUndefined();
      }
    }
    const budget = policies.find((policy) => policy.name === "budget")!;
    const childBudget = inheritPolicies([budget], { kind: "task", name: "explore", budget: { tokens: 500 } })[0]!;
    expect(childBudget).not.toBe(budget);
    const toolSearch = policies.find((policy) => policy.name === "tool-search")!;
    expect(inheritPolicies([toolSearch], { kind: "fork", name: "fork" })).toEqual([toolSearch]);
    expect(inheritPolicies([toolSearch], { kind: "task", name: "explore" })).toEqual([]);
  });
});
