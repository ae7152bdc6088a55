import { spawn, type ChildProcess } from "node:child_process";

export interface DirectorySwapper {
  stop(): void;
}

/**
 * Another process that swaps `directory` for a symbolic link to `outside` and back, in a tight
 * loop (1 ms each way): the check-then-use race a path resolver must survive. Resolves once the
 * child is swapping.
 */
export async function startDirectorySwapper(directory: string, outside: string): Promise<DirectorySwapper> {
  const swapper: ChildProcess = spawn(
    process.execPath,
    [
      "-e",
      `const fs = require("node:fs");
       const [directory, outside] = process.argv.slice(1);
       process.stdout.write("ready\\n");
       const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
       for (;;) {
         try { fs.renameSync(directory, directory + ".real"); fs.symlinkSync(outside, directory); } catch {}
         pause();
         try { fs.unlinkSync(directory); fs.renameSync(directory + ".real", directory); } catch {}
         pause();
       }`,
      directory,
      outside,
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise((resolve) => swapper.stdout!.once("data", resolve));
  return { stop: () => swapper.kill("SIGKILL") };
}
