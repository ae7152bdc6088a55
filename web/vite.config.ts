import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The viewer page: bundled into dist/web/page, which the ctxkit view server serves (no CDN at run time).
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../dist/web/page", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    reportCompressedSize: false,
  },
});
