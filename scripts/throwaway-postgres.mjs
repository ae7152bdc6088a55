#!/usr/bin/env node
// Starts and stops a throw-away PostgreSQL (a new cluster in a temporary folder, 127.0.0.1 on a free
// port, run by a non-root user) for tests, CI and `ctxkit bench durable`:
//
//   eval "$(node scripts/throwaway-postgres.mjs start)"   sets CTXKIT_DATABASE_URL and CTXKIT_POSTGRES_FOLDER
//   node scripts/throwaway-postgres.mjs stop "$CTXKIT_POSTGRES_FOLDER"
//
// The code is src/testing/throwaway-postgres.ts (the tests start it in-process), run from the sources.
import "./typescript-loader.mjs";

const { startThrowawayPostgres, stopThrowawayPostgres } = await import("../src/testing/throwaway-postgres.ts");
const [action, folder] = process.argv.slice(2);
if (action === "start") {
  const started = await startThrowawayPostgres();
  process.stdout.write(`export CTXKIT_DATABASE_URL=${started.url}\nexport CTXKIT_POSTGRES_FOLDER=${started.folder}\n`);
} else if (action === "stop" && folder) {
  stopThrowawayPostgres(folder);
} else {
  process.stderr.write("usage: node scripts/throwaway-postgres.mjs start | stop <folder>\n");
  process.exit(2);
}
