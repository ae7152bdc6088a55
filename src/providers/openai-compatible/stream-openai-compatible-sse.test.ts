import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import { createOpenAICompatible } from "./create-openai-compatible.js";
import { collect, request, sseHeaders } from "./test-support/request-fixtures.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("streamOpenAICompatible SSE framing", () => {
  it("reads a CRLF line end split between two network chunks as one line end", async () => {
    // One event whose JSON spans two `data:` lines; the CRLF after the first line is cut between "\r" and "\n".
    server = await startLoopbackServer([
      {
        headers: sseHeaders,
        delayMs: 20,
        chunks: [
          'data: {"choices":[{"index":0,"delta":{"content":"Hi"},\r',
          '\ndata: "finish_reason":"stop"}]}\r\n\r\n',
          "data:[DONE]\r\n\r\n",
        ],
      },
    ]);
    const provider = createOpenAICompatible({ model: "m", baseURL: server.url, apiKey: "k", env: {} });
    const events = await collect(provider.stream(request()));
    const last = events.at(-1);
    expect(last?.type).toBe("done");
    if (last?.type === "done") expect(last.response.content).toEqual([{ type: "text", text: "Hi" }]);
  });
});
