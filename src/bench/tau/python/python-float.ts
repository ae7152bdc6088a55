/**
 * Python's `repr(float)`: the shortest digits that round-trip (as JavaScript's), laid out the way
 * Python does — always a `.0` on integral values, exponent form below 1e-4 and from 1e16 on, with a
 * two-digit exponent (`1e-05`, `1e+16`).
 */
export function formatPythonFloat(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa = "0", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const exponentSign = exponent < 0 ? "-" : "+";
    return `${sign}${digits[0]}${fraction}e${exponentSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const integerDigits = exponent + 1;
  if (digits.length <= integerDigits) return `${sign}${digits.padEnd(integerDigits, "0")}.0`;
  return `${sign}${digits.slice(0, integerDigits)}.${digits.slice(integerDigits)}`;
}

/**
 * Python's `round(x, ndigits)` on a float: rounds the exact binary value, ties to even. `toFixed`
 * also rounds the exact value but breaks ties away from zero. An exact tie (x·10ⁿ ending in .5
 * exactly) needs x·2ⁿ⁺¹ to be an odd integer, since 10ⁿ·2 = 2ⁿ⁺¹·5ⁿ; only those are rounded here.
 */
export function roundPythonFloat(value: number, ndigits: number): number {
  if (!Number.isFinite(value)) return value;
  const twice = value * 2 ** (ndigits + 1);
  if (Number.isInteger(twice) && Math.abs(twice) % 2 === 1 && Math.abs(twice * 5 ** ndigits) < 2 ** 53) {
    const doubled = twice * 5 ** ndigits;
    const lower = Math.floor(doubled / 2);
    return (lower % 2 === 0 ? lower : lower + 1) / 10 ** ndigits;
  }
  const rounded = Number(value.toFixed(ndigits));
  return rounded === 0 && value < 0 ? -0 : rounded;
}
