#!/usr/bin/env node
import { main } from "../dist/cli/main.js";

// `ctxkit demo | head -1`: the reader left; that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error && error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error) => { process.stderr.write(`ctxkit: ${error instanceof Error ? error.message : String(error)}\n`); process.exitCode = 1; },
);
