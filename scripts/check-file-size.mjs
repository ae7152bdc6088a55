// Fails when a source file in src/ exceeds the style guide's 500-line limit (tests excluded).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const limit = 500;
const offenders = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (path.endsWith(".ts") && !path.endsWith(".test.ts")) {
      const lines = readFileSync(path, "utf8").split("\n").length;
      if (lines > limit) offenders.push(`${path} (${lines} lines)`);
    }
  }
}
walk("src");
if (offenders.length > 0) {
  console.error(`Files over ${limit} lines — split them by responsibility:\n  ${offenders.join("\n  ")}`);
  process.exit(1);
}
console.log(`check-file-size: every file in src/ is within ${limit} lines`);
