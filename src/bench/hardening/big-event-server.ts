import { spawn, type ChildProcess } from "node:child_process";

/**
 * One scripted SSE response: `prefix`, then `fillLength` copies of the ASCII `fill` character,
 * then `suffix`, written in `chunkBytes` pieces. The huge middle is built in the server process
 * so it never crosses the IPC channel (whose serialisation would be the parent's CPU).
 */
export interface BigEventResponse {
  prefix: string;
  fill: string;
  fillLength: number;
  suffix: string;
  chunkBytes: number;
}

export interface BigEventServer {
  /** e.g. "http://127.0.0.1:41234" */
  url: string;
  /** Builds the body of every following response in the server process; resolves once it is ready. */
  prepare(response: BigEventResponse): Promise<void>;
  close(): Promise<void>;
}

/**
 * The server's source, run with `node --input-type=module -e`: self-contained, so it runs the same
 * from dist/ and under vitest (which compiles TypeScript for the parent only). It writes every
 * chunk at once, as the in-process loopback server did, and answers 500 until prepared.
 */
const serverSource = `
import { createServer } from "node:http";
let chunks = null;
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    if (chunks === null) { response.writeHead(500); response.end("not prepared"); return; }
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const chunk of chunks) response.write(chunk);
    response.end();
  });
});
process.on("message", (message) => {
  if (message.type === "close") { server.closeAllConnections(); server.close(() => process.exit(0)); return; }
  const body = Buffer.concat([Buffer.from(message.prefix), Buffer.alloc(message.fillLength, message.fill), Buffer.from(message.suffix)]);
  chunks = [];
  for (let start = 0; start < body.length; start += message.chunkBytes) chunks.push(body.subarray(start, start + message.chunkBytes));
  process.send({ type: "ready" });
});
process.on("disconnect", () => process.exit(0));
server.listen(0, "127.0.0.1", () => process.send({ type: "listening", port: server.address().port }));
`;

/**
 * Starts the big-event battery's HTTP server in a child process. The battery measures the
 * provider's CPU with `process.cpuUsage()`, which counts every thread of this process (worker
 * threads included): a server here added its own superlinear cost (writing 20 MB took 3–4× the
 * CPU of 10 MB) to the parser's.
 */
export async function startBigEventServer(): Promise<BigEventServer> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", serverSource], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const port = await nextMessage<{ type: "listening"; port: number }>(child, "listening");
  return {
    url: `http://127.0.0.1:${port.port}`,
    prepare: async (response) => {
      const ready = nextMessage(child, "ready");
      child.send({ type: "prepare", ...response });
      await ready;
    },
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.send({ type: "close" });
      const timer = setTimeout(() => child.kill(), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function nextMessage<T extends { type: string }>(child: ChildProcess, type: T["type"]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if ((message as { type?: unknown }).type !== type) return;
      cleanUp();
      resolve(message as T);
    };
    const onExit = (code: number | null) => {
      cleanUp();
      reject(new Error(`The big-event server exited (code ${code}) before sending "${type}".`));
    };
    const cleanUp = () => {
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
}
