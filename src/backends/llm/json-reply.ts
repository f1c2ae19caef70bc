/**
 * Tolerant extraction of the first valid JSON value in a model's reply: fenced ```json blocks first,
 * then the first `{` or `[` whose balanced span parses. Brackets inside strings are skipped, and prose
 * with brackets after the value does not matter (the reference's greedy first-`[`-to-last-`]` did).
 */

/** The index of the bracket closing the one at `start`, or -1. */
function closingIndex(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

function firstValue(text: string): { value: unknown } | null {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    const end = closingIndex(text, i);
    if (end < 0) continue;
    try {
      return { value: JSON.parse(text.slice(i, end + 1)) as unknown };
    } catch {
      // Not JSON (prose in brackets): keep looking.
    }
  }
  return null;
}

/** The first JSON value in `text`, or null when there is none. */
export function extractJson(text: string): { value: unknown } | null {
  for (const m of text.matchAll(/```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)```/g)) {
    const found = firstValue(m[1] ?? '');
    if (found) return found;
  }
  return firstValue(text);
}
