import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createCappedFetch } from "./capped-fetch.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A loopback server answering every request with `size` bytes of JSON string. */
async function answering(size: number): Promise<string> {
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify("y".repeat(size - 2)));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe("createCappedFetch", () => {
  it("fails an answer to a request past the cap with the reason, and passes one within it", async () => {
    const url = await answering(200_000);
    const cappedFetch = createCappedFetch(100_000);
    const over = await cappedFetch(url, { method: "POST", body: "{}" });
    await expect(over.json()).rejects.toThrow("the server's answer is over 0.1 MB, more than ctxkit reads from an MCP server, so it was not read");
    expect(((await (await createCappedFetch(300_000)(url, { method: "POST", body: "{}" })).json()) as string).length).toBe(199_998);
  });

  it("leaves the GET stream of server notifications alone", async () => {
    const url = await answering(200_000);
    expect(((await (await createCappedFetch(100_000)(url)).json()) as string).length).toBe(199_998);
  });
});
