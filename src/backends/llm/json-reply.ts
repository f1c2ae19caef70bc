/**
 * Tolerant extraction of JSON values from a model's reply, thinking blocks removed: fenced ```json
 * blocks first, then every `{` or `[` whose balanced span parses; the caller takes the first that
 * passes its schema. Brackets inside strings are skipped, and prose
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

/** Every balanced value of `text` that parses, in order; a value's inner values are not listed again. */
function* bareValues(text: string): Generator<unknown> {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    const end = closingIndex(text, i);
    if (end < 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(i, end + 1)) as unknown;
    } catch {
      continue; // Not JSON (prose in brackets): keep looking.
    }
    yield value;
    i = end;
  }
}

/**
 * A reasoning model's thinking (`<think>…</think>`, `<thinking>…</thinking>`) is not its answer: a
 * draft `{"edits": []}` in it must not win. A reply that starts mid-thought and only closes the tag
 * keeps what follows the tag.
 */
export function withoutThinking(text: string): string {
  const closed = text.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '');
  const dangling = closed.match(/<\/(think|thinking|reasoning)>/i);
  return dangling?.index === undefined ? closed : closed.slice(dangling.index + dangling[0].length);
}

/** The JSON values of a reply, best first: fenced blocks, then bare values, thinking removed. */
export function* jsonCandidates(text: string): Generator<unknown> {
  const answer = withoutThinking(text);
  for (const m of answer.matchAll(/```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)```/g)) yield* bareValues(m[1] ?? '');
  yield* bareValues(answer);
}
