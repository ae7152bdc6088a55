import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeDirectoryTree } from "../../types/make-directory-tree.js";

/**
 * Writes the demo's small code base: a price calculator whose discount is applied backwards, a
 * check script that fails because of it, and a ~200 KB server log whose one ERROR line points at
 * the bug. Deterministic: the same files every time, so the demo's numbers are reproducible.
 */
export async function createDemoWorkspace(directory: string): Promise<void> {
  await makeDirectoryTree(join(directory, "src"));
  await makeDirectoryTree(join(directory, "logs"));
  await writeFile(join(directory, "README.md"), readme);
  await writeFile(join(directory, "src", "discount.js"), discountSource);
  await writeFile(join(directory, "src", "cart.js"), cartSource);
  await writeFile(join(directory, "check.mjs"), checkSource);
  await writeFile(join(directory, "logs", "server.log"), serverLog());
}

const readme = `# shop-pricing

Computes cart totals for the shop. \`node check.mjs\` runs the pricing checks.
Discounts are percentages (10 means 10% off).
`;

export const buggyDiscountLine = "  return price * (percent / 100);";
export const fixedDiscountLine = "  return price * (1 - percent / 100);";

const discountSource = `// Applies a percentage discount to a price.
export function applyDiscount(price, percent) {
  if (percent < 0 || percent > 100) throw new RangeError(\`bad discount: \${percent}\`);
${buggyDiscountLine}
}
`;

const cartSource = `import { applyDiscount } from "./discount.js";

export function cartTotal(items, discountPercent = 0) {
  const subtotal = items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  return Math.round(applyDiscount(subtotal, discountPercent) * 100) / 100;
}
`;

const checkSource = `import { cartTotal } from "./src/cart.js";

const cases = [
  { items: [{ price: 20, quantity: 2 }], discount: 0, expected: 40 },
  { items: [{ price: 20, quantity: 2 }], discount: 10, expected: 36 },
  { items: [{ price: 9.99, quantity: 3 }], discount: 25, expected: 22.48 },
];
let failed = 0;
for (const { items, discount, expected } of cases) {
  const actual = cartTotal(items, discount);
  const ok = actual === expected;
  if (!ok) failed++;
  console.log(\`\${ok ? "ok  " : "FAIL"} cartTotal(discount=\${discount}) = \${actual} (expected \${expected})\`);
}
console.log(failed === 0 ? "all pricing checks passed" : \`\${failed} pricing check(s) failed\`);
process.exit(failed === 0 ? 0 : 1);
`;

/** ~200 KB of access-log lines with one ERROR near the end, generated from a fixed seed. */
function serverLog(): string {
  const lines: string[] = [];
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const paths = ["/api/cart", "/api/products", "/api/checkout", "/health", "/api/user/profile"];
  const start = Date.parse("2026-11-29T08:00:00.000Z");
  for (let index = 0; index < 2400; index++) {
    const time = new Date(start + index * 1500).toISOString();
    const path = paths[Math.floor(random() * paths.length)];
    const latency = Math.floor(random() * 180) + 4;
    const request = Math.floor(random() * 1e9).toString(16).padStart(8, "0");
    lines.push(`${time} INFO  http request_id=${request} method=GET path=${path} status=200 latency_ms=${latency}`);
    if (index === 2203) {
      lines.push(
        `${time} ERROR pricing request_id=${request} path=/api/checkout cart_total=4.00 expected=36.00 ` +
          `discount_percent=10 at applyDiscount (src/discount.js:4) — total below cost, order rejected`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
