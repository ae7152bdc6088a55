/**
 * Whether CSS declarations (an inline `style` or a style-sheet rule's body) hide what they apply to
 * from a reader: the tricks pages use to show a model text a person never sees. Only what can be
 * decided from the declarations alone, cheaply; colours are compared by `isSameColor`.
 */
export function hidesContent(declarations: string): boolean {
  const style = parseDeclarations(declarations);
  const value = (name: string): string => style.get(name) ?? "";
  if (/^none\b/.test(value("display"))) return true;
  if (/^(hidden|collapse)\b/.test(value("visibility"))) return true;
  if (isZero(value("opacity"))) return true;
  if (isAtMostOnePixel(value("font-size"))) return true;
  if (/^(0|transparent)\b/.test(value("color")) || /rgba?\([^)]*,\s*0(\.0+)?\s*\)/.test(value("color"))) return true;
  const clipsOverflow = /hidden|clip/.test(value("overflow"));
  if (clipsOverflow && (isZero(value("width")) || isZero(value("height")) || isZero(value("max-height")) || isZero(value("max-width")))) return true;
  if (/^(absolute|fixed)/.test(value("position")) && ["left", "top", "right", "bottom"].some((side) => isFarOffScreen(value(side)))) return true;
  if (isFarOffScreen(value("text-indent"))) return true;
  if (/rect\(\s*0[a-z]*[\s,]+0[a-z]*[\s,]+0[a-z]*[\s,]+0[a-z]*\s*\)/.test(value("clip"))) return true;
  if (/inset\(\s*50%|circle\(\s*0/.test(value("clip-path"))) return true;
  if (/scale\(\s*0(\.0+)?\s*\)/.test(value("transform"))) return true;
  return false;
}

/** Declarations as a map of lower-case property → lower-case value (later ones win, like CSS). */
export function parseDeclarations(declarations: string): Map<string, string> {
  const style = new Map<string, string>();
  for (const declaration of declarations.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon === -1) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).replace(/!important/i, "").trim().toLowerCase();
    if (name !== "" && value !== "") style.set(name, value);
  }
  // `background` may carry the colour; `background-color` is what the colour check reads.
  const background = style.get("background");
  if (!style.has("background-color") && background !== undefined) {
    const colour = background.split(/\s+(?![^(]*\))/).find((part) => normalizeColor(part) !== undefined);
    if (colour !== undefined) style.set("background-color", colour);
  }
  return style;
}

const namedColors: Record<string, string> = { white: "#ffffff", black: "#000000", red: "#ff0000", snow: "#fffafa", ivory: "#fffff0" };

/** A colour as `#rrggbb`, or undefined when it is not a plain opaque colour this check knows. */
export function normalizeColor(value: string): string | undefined {
  const text = value.trim().toLowerCase();
  if (namedColors[text]) return namedColors[text];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(text);
  if (hex) {
    const digits = hex[1]!;
    return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits}`;
  }
  const rgb = /^rgba?\(\s*(\d+)\s*,?\s*(\d+)\s*,?\s*(\d+)\s*(?:[,/]\s*(1|1\.0+|100%))?\s*\)$/.exec(text);
  if (rgb) return `#${rgb.slice(1, 4).map((part) => Math.min(255, Number(part)).toString(16).padStart(2, "0")).join("")}`;
  return undefined;
}

function isZero(value: string): boolean {
  return /^(-?0+(\.0+)?)(px|em|rem|%|pt|vh|vw)?$/.test(value.split(/\s+/)[0] ?? "");
}

function isAtMostOnePixel(value: string): boolean {
  const match = /^(\d*\.?\d+)(px|pt|em|rem)?$/.exec(value);
  if (!match) return false;
  const size = Number(match[1]);
  return match[2] === "em" || match[2] === "rem" ? size < 0.1 : size <= 1;
}

function isFarOffScreen(value: string): boolean {
  const match = /^(-\d+(\.\d+)?)(px|em|rem|vw|vh|%)?$/.exec(value);
  if (!match) return false;
  const size = -Number(match[1]);
  const unit = match[3] ?? "px";
  return unit === "px" ? size >= 999 : unit === "%" || unit === "vw" || unit === "vh" ? size >= 100 : size >= 50;
}
