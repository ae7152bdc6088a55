import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readChatHistory, writeChatHistory } from "./chat-history-file.js";

describe("the chat history file", () => {
  it("keeps a message of several lines as one entry, and reads the plain lines of older files", () => {
    const file = join(mkdtempSync(join(tmpdir(), "ctxkit-history-")), "chat-history");
    // Newest first, as readline holds them.
    writeChatHistory(file, ["first\nsecond", '"quoted"', "plain"]);
    expect(readFileSync(file, "utf8")).toBe(`plain\n${JSON.stringify('"quoted"')}\n${JSON.stringify("first\nsecond")}\n`);
    expect(readChatHistory(file, 10)).toEqual(["first\nsecond", '"quoted"', "plain"]);
    writeFileSync(file, 'older\n"unterminated\nnewer\n');
    expect(readChatHistory(file, 2)).toEqual(["newer", '"unterminated']);
  });
});
