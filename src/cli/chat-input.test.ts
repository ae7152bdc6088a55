import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createChatInput } from "./chat-input.js";

/** A terminal's two ends in memory: keys go in as a person types them, everything drawn comes out. */
function terminal() {
  const keys = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode: (mode: boolean) => void };
  keys.isTTY = true;
  keys.setRawMode = () => undefined;
  const screen = new PassThrough() as PassThrough & { isTTY: boolean; columns: number };
  screen.isTTY = true;
  screen.columns = 100;
  let drawn = "";
  screen.on("data", (data: Buffer) => (drawn += data.toString()));
  const input = createChatInput({ input: keys, output: screen, commands: [], onQueued: () => undefined });
  return { input, type: (text: string) => keys.write(text), drawn: () => drawn };
}

describe("chat input on a terminal", () => {
  // Ctrl-C at "Allow bash? [y]es / [n]o …" used to stop the turn but leave the question waiting: it
  // still asked after the ^C, and the line typed next was taken as its answer.
  it("ends a question when Ctrl-C stops the turn, and the line typed next is a message again", async () => {
    const { input, type, drawn } = terminal();
    const turn = new AbortController();
    input.onInterrupt(() => turn.abort());
    const answer = input.nextAnswer(turn.signal);
    type("ye");
    type("\u0003");
    expect(await answer).toBeUndefined();
    expect(drawn()).toContain("^C");
    const message = input.nextMessage("> ");
    type("what next?\r");
    expect(await message).toBe("what next?");
    input.close();
  });

  it("still takes an answer typed after the question", async () => {
    const { input, type } = terminal();
    const turn = new AbortController();
    const answer = input.nextAnswer(turn.signal);
    type("y\r");
    expect(await answer).toBe("y");
    input.close();
  });
});
