/** How a planned change reads for a person: a unified-diff-like hunk of the lines that differ. */
const CONTEXT = 2;

function lines(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  return text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
}

/** `--- a` / `+++ b` and one hunk from the first to the last differing line, with some context. */
export function changeDiff(label: string, before: string | undefined, after: string | undefined): string {
  const a = lines(before);
  const b = lines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const from = Math.max(0, head - CONTEXT);
  const out = [
    `--- ${before === undefined ? '/dev/null' : label}`,
    `+++ ${after === undefined ? '/dev/null' : label}`,
    `@@ -${from + 1},${a.length - tail - from} +${from + 1},${b.length - tail - from} @@`,
  ];
  for (const l of a.slice(from, head)) out.push(` ${l}`);
  for (const l of a.slice(head, a.length - tail)) out.push(`-${l}`);
  for (const l of b.slice(head, b.length - tail)) out.push(`+${l}`);
  for (const l of a.slice(a.length - tail, Math.min(a.length, a.length - tail + CONTEXT))) out.push(` ${l}`);
  return out.join('\n');
}
