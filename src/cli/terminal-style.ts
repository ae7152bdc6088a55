/** ANSI styling that turns itself off when the output is not a colour terminal. */
export interface TerminalStyle {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

export function createTerminalStyle(enabled: boolean): TerminalStyle {
  const wrap = (open: number, close: number) => (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { dim: wrap(2, 22), bold: wrap(1, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}

/**
 * Colour when the stream is a TTY, unless NO_COLOR is set or the user said --no-color. FORCE_COLOR
 * (any value but 0 or false, as chalk and Node read it) turns colour on for pipes, e.g. under `less -R`.
 */
export function shouldUseColor(stream: { isTTY?: boolean }, flag: boolean | undefined, environment = process.env): boolean {
  if (flag !== undefined) return flag;
  const force = environment.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  if (environment.NO_COLOR !== undefined && environment.NO_COLOR !== "") return false;
  return stream.isTTY === true;
}
