import { spawn, type ChildProcess } from "node:child_process";

export interface DirectorySwapper {
  stop(): void;
}

/**
 * How the folder is replaced: `swap` moves it aside and creates a link in its place (the name is
 * briefly missing: raw ENOENT territory); `flip` renames a prepared link over the name and back,
 * so the name flips between the folder and the link with fewer system calls in between.
 */
export type SwapMode = "swap" | "flip";

/**
 * Another process that swaps `directory` for a symbolic link to `outside` and back, in a tight
 * loop (1 ms each way): the check-then-use race a path resolver must survive. Resolves once the
 * child is swapping.
 */
export async function startDirectorySwapper(directory: string, outside: string, mode: SwapMode = "swap"): Promise<DirectorySwapper> {
  const swapper: ChildProcess = spawn(
    process.execPath,
    [
      "-e",
      `const fs = require("node:fs");
       const [directory, outside, mode] = process.argv.slice(1);
       const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
       if (mode === "flip") { try { fs.unlinkSync(directory + ".link"); } catch {} fs.symlinkSync(outside, directory + ".link"); }
       process.stdout.write("ready\\n");
       for (;;) {
         if (mode === "flip") {
           try { fs.renameSync(directory, directory + ".real"); fs.renameSync(directory + ".link", directory); } catch {}
           pause();
           try { fs.renameSync(directory, directory + ".link"); fs.renameSync(directory + ".real", directory); } catch {}
         } else {
           try { fs.renameSync(directory, directory + ".real"); fs.symlinkSync(outside, directory); } catch {}
           pause();
           try { fs.unlinkSync(directory); fs.renameSync(directory + ".real", directory); } catch {}
         }
         pause();
       }`,
      directory,
      outside,
      mode,
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise((resolve) => swapper.stdout!.once("data", resolve));
  return { stop: () => swapper.kill("SIGKILL") };
}
