import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { workspaceConfigReason } from "../tools/create-tool-approvals.js";
import { createConfirmationHandler, type ConfirmationPolicy } from "./confirm-prompt.js";
import { createTerminalStyle } from "./terminal-style.js";

function policyWith(answer: string | undefined, overrides: Partial<ConfirmationPolicy> = {}) {
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk: Buffer) => (shown += chunk.toString("utf8")));
  const policy: ConfirmationPolicy = {
    readLine: async () => answer,
    output,
    style: createTerminalStyle(false),
    workspace: "/nonexistent-workspace",
    ...overrides,
  } as ConfirmationPolicy;
  return { handler: createConfirmationHandler(policy), shown: () => shown };
}

const call = (name: string, args: unknown) => ({ id: "c1", name, arguments: args, argumentsText: JSON.stringify(args) });

describe("confirmation prompt", () => {
  // The trial that found it: `docs/‮txt.hs‬-readme.md` was shown raw, so the path displayed reversed.
  it("shows bidi, control and invisible characters in the call escaped", async () => {
    const { handler, shown } = policyWith("n");
    await handler(call("write_file", { path: "docs/\u202etxt.hs\u202c-readme.md", content: "\u001b[2Jx" }));
    expect(shown()).toContain("docs/\\u202Etxt.hs\\u202C-readme.md");
    expect(shown()).toMatch(/\\u001[bB]\[2Jx/);
    // eslint-disable-next-line no-control-regex -- the raw ESC must not be shown
    expect(shown()).not.toMatch(/[\u202e\u202c\u001b]/);
  });

  it("says the call is not run when Ctrl-C stopped the turn at the question, not that no answer could be read", async () => {
    const { handler, shown } = policyWith(undefined, { interrupted: () => true });
    expect(await handler(call("bash", { command: "ls" }))).toMatchObject({ approved: false, stopped: true });
    expect(shown()).toContain("not run: you stopped the turn");
    expect(shown()).not.toContain("no answer could be read");
  });

  it("escapes arguments that are not JSON and a tool name with controls", async () => {
    const { handler, shown } = policyWith("n");
    await handler({ id: "c1", name: "bash\u202e", arguments: undefined, argumentsText: "{bad \u2066json" });
    expect(shown()).toContain("bash\\u202E");
    expect(shown()).toContain("{bad \\u2066json");
  });

  // The trial that found it: after one approved write_file, a config the model wrote enabled bash
  // and moved the session storage on the next run. The tool-approvals policy asks about such a call
  // under --yes and allow (create-tool-approvals.test.ts); the prompt says what it changes.
  it("asks about a change to ctxkit.config.json the policy asked about, saying what it changes", async () => {
    const declined = policyWith(undefined);
    expect(await declined.handler(asked(call("write_file", { path: "ctxkit.config.json", content: '{"tools":["all"]}' })))).toEqual({ approved: false });
    expect(declined.shown()).toContain("changes ctxkit.config.json");
    expect(declined.shown()).toContain("--yes and allow do not cover it");

    const approved = policyWith("y");
    expect(await approved.handler(asked(call("bash", { command: "echo '{}' > ctxkit.config.json" })))).toEqual({ approved: true });
    expect(approved.shown()).toContain("changes ctxkit.config.json");
  });

  it("remembers 'always' for a tool, but not for a call a policy asked about", async () => {
    const answers = ["a", "a", undefined];
    const { handler, shown } = policyWith(undefined, { readLine: async () => answers.shift() });
    expect(await handler(asked(call("bash", { command: "echo '{}' > ctxkit.config.json" })))).toEqual({ approved: true });
    expect(await handler(call("bash", { command: "ls" }))).toEqual({ approved: true });
    expect(await handler(call("bash", { command: "pwd" }))).toEqual({ approved: true });
    expect(await handler(asked(call("bash", { command: "rm ctxkit.config.json" })))).toEqual({ approved: false });
    expect(shown().match(/\? Allow/g)).toHaveLength(3);
  });
});

const asked = <T extends object>(info: T) => ({ ...info, asked: { reasons: [workspaceConfigReason] } });
