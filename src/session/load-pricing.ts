import { readFileSync } from "node:fs";
import { ConfigError } from "../types/index.js";
import { stripByteOrderMark } from "../types/byte-order-mark.js";
import { defaultPricingCatalog, findModelPricingMatch, findModelPricingName, type ModelPricing, type PricingCatalog } from "../tokens/pricing.js";

/** Prices with the name they go by (a catalog key, or the file they came from). */
export interface NamedPricing {
  name: string;
  pricing: ModelPricing;
  /** The entry is another model's, found by the longest catalog name the model starts with. */
  fallback?: boolean;
}

/**
 * Which prices apply: one fixed price list for every model (`--pricing gpt-4o`, or a file holding one
 * model's prices), or a catalog in which each transcript's own model is looked up.
 */
export type PricingSelection = { kind: "fixed"; fixed: NamedPricing } | { kind: "catalog"; catalog: PricingCatalog };

/**
 * Reads a `--pricing` value: a catalog model name ("claude-sonnet-4-5"), or a JSON file holding
 * either one model's prices `{input, cacheRead, output, …}` or a catalog `{models: {name: prices}}`
 * whose entries override the built-in ones. Without a value, the built-in catalog.
 */
export function loadPricingSelection(spec: string | undefined, readText: (path: string) => string = (path) => readFileSync(path, "utf8")): PricingSelection {
  if (spec === undefined) return { kind: "catalog", catalog: defaultPricingCatalog };
  if (!/\.json$/i.test(spec) && !/[\\/]/.test(spec)) {
    const name = findModelPricingName(spec);
    const pricing = name === undefined ? undefined : defaultPricingCatalog.models[name];
    if (name === undefined || pricing === undefined) {
      throw new ConfigError(
        "pricing_invalid",
        `No prices for '${spec}' in the catalog. Use one of: ${Object.keys(defaultPricingCatalog.models).join(", ")}; or pass a JSON file with --pricing prices.json.`,
      );
    }
    return { kind: "fixed", fixed: { name, pricing } };
  }
  let value: unknown;
  try {
    value = JSON.parse(stripByteOrderMark(readText(spec))) as unknown;
  } catch (error) {
    throw new ConfigError("pricing_invalid", `Cannot read the pricing file ${spec}: ${(error as Error).message}.`, { cause: error });
  }
  if (isObject(value) && isObject(value.models)) {
    const models: Record<string, ModelPricing> = { ...defaultPricingCatalog.models };
    for (const [name, entry] of Object.entries(value.models)) models[name.toLowerCase()] = toModelPricing(entry, `${spec}: models.${name}`);
    return { kind: "catalog", catalog: { ...defaultPricingCatalog, models } };
  }
  return { kind: "fixed", fixed: { name: spec, pricing: toModelPricing(value, spec) } };
}

/** The prices for a transcript's model under a selection; undefined when the catalog has none. */
export function selectPricing(selection: PricingSelection, model: string | undefined): NamedPricing | undefined {
  if (selection.kind === "fixed") return selection.fixed;
  if (model === undefined) return undefined;
  const match = findModelPricingMatch(model, selection.catalog);
  const pricing = match === undefined ? undefined : selection.catalog.models[match.name];
  if (match === undefined || pricing === undefined) return undefined;
  return match.fallback ? { name: match.name, pricing, fallback: true } : { name: match.name, pricing };
}

const priceFields = ["input", "cacheRead", "output"] as const;
const optionalPriceFields = ["cacheWrite", "cacheWrite1h"] as const;

function toModelPricing(value: unknown, where: string): ModelPricing {
  const fix = 'Expected {"input": 3, "cacheRead": 0.3, "output": 15} in USD per million tokens, optionally "cacheWrite", "cacheWrite1h", "cacheRule", "provider".';
  if (!isObject(value)) throw new ConfigError("pricing_invalid", `${where} is not a price list. ${fix}`);
  for (const field of [...priceFields, ...optionalPriceFields]) {
    const price = value[field];
    const required = (priceFields as readonly string[]).includes(field);
    if ((required || price !== undefined) && !(typeof price === "number" && Number.isFinite(price) && price >= 0)) {
      throw new ConfigError("pricing_invalid", `${where}: '${field}' must be a non-negative number. ${fix}`);
    }
  }
  return {
    provider: typeof value.provider === "string" ? value.provider : "custom",
    cacheRule: typeof value.cacheRule === "string" ? value.cacheRule : "none",
    input: value.input as number,
    cacheRead: value.cacheRead as number,
    ...(typeof value.cacheWrite === "number" ? { cacheWrite: value.cacheWrite } : {}),
    ...(typeof value.cacheWrite1h === "number" ? { cacheWrite1h: value.cacheWrite1h } : {}),
    output: value.output as number,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
