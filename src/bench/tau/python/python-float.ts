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
 * also rounds the exact value but breaks ties away from zero; exact ties are values whose scaled
 * fraction is exactly one half, which the check below finds and rounds to even instead.
 */
export function roundPythonFloat(value: number, ndigits: number): number {
  if (!Number.isFinite(value)) return value;
  const scale = 10 ** ndigits;
  const scaled = value * scale;
  const floor = Math.floor(scaled);
  const isExactTie = scaled - floor === 0.5 && scaled / scale === value && Math.abs(scaled) < 2 ** 52;
  if (isExactTie) return (floor % 2 === 0 ? floor : floor + 1) / scale;
  const rounded = Number(value.toFixed(ndigits));
  return rounded === 0 && value < 0 ? -0 : rounded;
}
