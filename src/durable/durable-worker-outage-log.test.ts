import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { createFreshDatabase } from "../session/postgres/test-support/fresh-database.js";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { startDurableWorker } from "./start-durable-worker.js";

const database = await testDatabase();

/** A TCP relay to the database that can be cut and reopened on its port: the worker sees the database go down (connection refused) and come back. */
function databaseRelay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const open = (port = 0) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("error", () => undefined);
          socket.on("close", () => {
            sockets.delete(socket);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server!.address() as AddressInfo).port));
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (server) server.close(() => resolve());
      else resolve();
    });
  return { open, cut };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(database.skip !== undefined)(`a worker's log while its database is down${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  it("logs each failing poller's message once (not ~12 lines a second), then counts them and says when the database is back", async () => {
    const url = new URL(await createFreshDatabase(database.url!, "durable_outage_log"));
    const relay = databaseRelay(url);
    const port = await relay.open();
    const relayed = new URL(url);
    relayed.hostname = "127.0.0.1";
    relayed.port = String(port);
    const lines: string[] = [];
    const worker = await startDurableWorker({ connectionString: relayed.toString(), concurrency: 1, builders: {}, onLog: (level, message) => lines.push(`${level}: ${message}`) });
    try {
      await sleep(1_000);
      const before = lines.length;
      await relay.cut();
      await sleep(4_000);
      const outage = lines.slice(before);
      expect(outage.some((line) => line.includes("ECONNREFUSED"))).toBe(true);
      // Each distinct message once: DBOS's queue poller alone failed five times a second before.
      expect(new Set(outage).size).toBe(outage.length);
      await relay.open(port);
      for (let waited = 0; waited < 20_000 && !lines.some((line) => line.includes("database reachable again")); waited += 250) await sleep(250);
      const back = lines.slice(before + outage.length);
      expect(back).toContainEqual(expect.stringMatching(/^info: database reachable again: the heartbeat failed for \d+ s$/));
      expect(back).toContainEqual(expect.stringMatching(/ECONNREFUSED .*\(the same \d+ more time\(s\) in the last \d+ s\)$/));
    } finally {
      await relay.open(port).catch(() => undefined);
      await worker.stop();
      await relay.cut();
    }
  }, 60_000);
});
