import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../types/index.js";

/** A PostgreSQL cluster of its own, for tests, CI and `ctxkit bench durable`; `stop()` deletes it. */
export interface ThrowawayPostgres {
  /** Connects as the superuser `ctxkit` to the database `postgres`. */
  url: string;
  folder: string;
  stop(): void;
}

const binaryFolders = ["/usr/local/bin", "/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"];

/** Where `initdb` and `pg_ctl` are, or undefined when PostgreSQL is not installed. */
export function findPostgresBinaries(): { initdb: string; pgCtl: string } | undefined {
  for (const folder of binaryFolders) {
    if (existsSync(join(folder, "initdb")) && existsSync(join(folder, "pg_ctl"))) return { initdb: join(folder, "initdb"), pgCtl: join(folder, "pg_ctl") };
  }
  const initdb = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout?.trim() ?? "";
  return initdb === "" ? undefined : { initdb, pgCtl: join(initdb, "..", "pg_ctl") };
}

/**
 * Starts a new cluster in a temporary folder: loopback only, a free port, trust authentication (it
 * is thrown away), no fsync. Postgres refuses to run as root ("cannot be run as root"), so as root
 * it runs as Debian's `postgres` user.
 */
export async function startThrowawayPostgres(options: { stopWhenProcessExits?: number } = {}): Promise<ThrowawayPostgres> {
  const binaries = findPostgresBinaries();
  if (binaries === undefined) {
    throw new ConfigError("dependency_missing", "PostgreSQL is not installed (no initdb found). Install it (apt-get install -y postgresql) or set CTXKIT_DATABASE_URL.");
  }
  const folder = mkdtempSync(join(tmpdir(), "ctxkit-postgres-"));
  try {
    chmodSync(folder, 0o700);
    if (isRoot()) execFileSync("chown", ["postgres", folder]);
    const dataFolder = join(folder, "data");
    runAsPostgresUser(binaries.initdb, ["-D", dataFolder, "-U", "ctxkit", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"]);
    const port = await freePort();
    const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${folder} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    runAsPostgresUser(binaries.pgCtl, ["-D", dataFolder, "-l", join(folder, "postgres.log"), "-o", settings, "-w", "-t", "30", "start"]);
    const url = `postgres://ctxkit@127.0.0.1:${port}/postgres`;
    writeFileSync(join(folder, "url"), url);
    if (options.stopWhenProcessExits !== undefined) startReaper(options.stopWhenProcessExits, binaries.pgCtl, folder);
    return { url, folder, stop: () => stopThrowawayPostgres(folder) };
  } catch (error) {
    stopThrowawayPostgres(folder);
    throw error;
  }
}

/** Stops the cluster (immediately: nothing in it is kept) and deletes its folder. */
export function stopThrowawayPostgres(folder: string): void {
  const binaries = findPostgresBinaries();
  if (binaries !== undefined && existsSync(join(folder, "data", "postmaster.pid"))) {
    try {
      runAsPostgresUser(binaries.pgCtl, ["-D", join(folder, "data"), "-m", "immediate", "-w", "stop"]);
    } catch {
      // Already stopped; the folder goes anyway.
    }
  }
  rmSync(folder, { recursive: true, force: true });
}

/**
 * A detached shell that stops the cluster once `pid` is gone: a test worker can be killed before
 * its exit handlers run, and a forgotten postmaster would outlive it.
 */
function startReaper(pid: number, pgCtl: string, folder: string): void {
  const stop = `${isRoot() ? "runuser -u postgres -- " : ""}"${pgCtl}" -D "${folder}/data" -m immediate -w stop`;
  const script = `while kill -0 ${pid} 2>/dev/null; do sleep 1; done; ${stop} >/dev/null 2>&1; rm -rf "${folder}"`;
  spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function runAsPostgresUser(binary: string, args: string[]): void {
  const [command, commandArgs] = isRoot() ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, args];
  execFileSync(command, commandArgs, { stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}
