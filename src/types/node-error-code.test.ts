import { open } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { ConfigError } from "./config-error.js";
import { describeNodeError, nodeErrorCode } from "./node-error-code.js";
import { ToolError } from "./tool-error.js";

const thrownBy = async (action: () => Promise<unknown>): Promise<unknown> => action().then(() => undefined, (error: unknown) => error);

describe("nodeErrorCode", () => {
  it("reads the code of an error Node threw", async () => {
    const missing = await thrownBy(() => open(join(tmpdir(), "ctxkit-no-such-file-7f3a", "x.txt"), "r"));
    expect(nodeErrorCode(missing)).toBe("ENOENT");
    expect(describeNodeError(missing)).toBe("ENOENT");
  });

  it("never takes a ToolError (or another ctxkit error) for a Node error, though they have codes too", () => {
    const toolError = new ToolError("not_found", "'notes.md' does not exist.");
    expect(toolError.code).toBe("tool_not_found");
    expect(nodeErrorCode(toolError)).toBeUndefined();
    expect(nodeErrorCode(new ConfigError("option_invalid", "Bad option."))).toBeUndefined();
    // In a message, a ctxkit error says what it is instead of a code that is not Node's.
    expect(describeNodeError(toolError)).toBe("ToolError: 'notes.md' does not exist.");
  });

  it("has nothing for values without a string code", () => {
    expect(nodeErrorCode(new Error("plain"))).toBeUndefined();
    expect(nodeErrorCode({ code: 2 })).toBeUndefined();
    expect(nodeErrorCode(undefined)).toBeUndefined();
    expect(describeNodeError("text")).toBe("text");
  });
});
