import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

describe("AgentOptions", () => {
  // Issue 23: a new capability is a ContextPolicy, not another option; the loop keeps ten fields at most.
  it("has at most 10 fields", () => {
    const source = ts.createSourceFile("agent-options.ts", readFileSync(new URL("./agent-options.ts", import.meta.url), "utf8"), ts.ScriptTarget.Latest, true);
    const options = source.statements.find((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === "AgentOptions");
    const fields = options!.members.map((member) => member.name?.getText(source));
    expect(fields).toEqual(["provider", "system", "tools", "context", "settings", "messages", "session", "confirmToolCall", "prefixGuard", "runtime"]);
    expect(fields.length).toBeLessThanOrEqual(10);
  });
});
