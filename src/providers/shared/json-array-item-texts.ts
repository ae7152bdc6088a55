/**
 * The exact text of each element of the array under `key` in a JSON object's text (the last such
 * key, as JSON.parse keeps), or undefined when the object has no such array. Opaque items a server
 * asks to have sent back unchanged (OpenAI's encrypted `compaction` item) are kept in the server's
 * own bytes this way: its key order and whitespace, which a parse and `JSON.stringify` would not keep.
 * Expects text that already parsed as JSON.
 */
export function jsonArrayItemTexts(text: string, key: string): string[] | undefined {
  let position = skipSpace(text, 0);
  if (text[position] !== "{") return undefined;
  position = skipSpace(text, position + 1);
  let found: string[] | undefined;
  while (position < text.length && text[position] !== "}") {
    const keyEnd = stringEnd(text, position);
    const name = JSON.parse(text.slice(position, keyEnd)) as string;
    position = skipSpace(text, skipSpace(text, keyEnd) + 1);
    if (name === key && text[position] === "[") {
      const items: string[] = [];
      position = skipSpace(text, position + 1);
      while (text[position] !== "]") {
        const end = valueEnd(text, position);
        items.push(text.slice(position, end));
        position = skipSpace(text, end);
        if (text[position] === ",") position = skipSpace(text, position + 1);
      }
      found = items;
      position += 1;
    } else {
      position = valueEnd(text, position);
    }
    position = skipSpace(text, position);
    if (text[position] === ",") position = skipSpace(text, position + 1);
  }
  return found;
}

function skipSpace(text: string, position: number): number {
  while (position < text.length && (text[position] === " " || text[position] === "\n" || text[position] === "\r" || text[position] === "\t")) position++;
  return position;
}

/** The index after a string that starts at `position` (its opening quote). */
function stringEnd(text: string, position: number): number {
  let index = position + 1;
  while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
  return index + 1;
}

/** The index after the value that starts at `position`. */
function valueEnd(text: string, position: number): number {
  const first = text[position];
  if (first === '"') return stringEnd(text, position);
  if (first === "{" || first === "[") {
    let depth = 0;
    let index = position;
    while (index < text.length) {
      const character = text[index];
      if (character === '"') {
        index = stringEnd(text, index);
        continue;
      }
      if (character === "{" || character === "[") depth++;
      else if (character === "}" || character === "]") {
        depth--;
        if (depth === 0) return index + 1;
      }
      index++;
    }
    return index;
  }
  let index = position;
  while (index < text.length && !",}] \n\r\t".includes(text[index]!)) index++;
  return index;
}
