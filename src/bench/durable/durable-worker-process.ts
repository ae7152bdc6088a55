// One worker of `ctxkit bench durable`, in a process of its own (the bench SIGKILLs it):
// node durable-worker-process.js <database url> <concurrency> <stale after ms>
import { loadPg } from "../../session/postgres/load-pg.js";
import { startDurableWorker } from "../../durable/start-durable-worker.js";
import { createBenchDurableAgent } from "./bench-durable-agent.js";

const [url, concurrency, staleAfterMs] = process.argv.slice(2);
const pool = new (await loadPg()).Pool({ connectionString: url, max: 4 });
pool.on("error", () => undefined);
const worker = await startDurableWorker({
  connectionString: url!,
  concurrency: Number(concurrency),
  staleAfterMs: Number(staleAfterMs),
  heartbeatMs: 1_000,
  pollMs: 100,
  builders: { bench: createBenchDurableAgent(pool) },
  onLog: (level, message) => {
    if (level === "error") process.stderr.write(`worker: ${message}\n`);
  },
});
process.stdout.write(`ready ${worker.executorId}\n`);
process.once("SIGTERM", () => void worker.stop().then(() => process.exit(0)));
