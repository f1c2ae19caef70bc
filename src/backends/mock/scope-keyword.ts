/**
 * The keyword a mock rule is scoped to: a word every failing task's wording shares, so the rule
 * reaches the same recurring task on held-out wording and leaves unrelated tasks alone.
 */
const STOP = new Set([
  'the',
  'and',
  'for',
  'with',
  'this',
  'that',
  'from',
  'into',
  'please',
  'can',
  'could',
  'you',
  'your',
  'our',
  'are',
  'was',
  'were',
  'will',
  'would',
  'should',
  'have',
  'has',
  'had',
  'not',
  'but',
  'all',
  'any',
  'what',
  'when',
  'how',
  'why',
  'its',
  'it',
  'me',
  'my',
  'to',
  'of',
  'in',
  'on',
  'a',
  'an',
  'is',
  'be',
  'we',
  'just',
  'now',
  'again',
  'some',
  'hey',
  'also',
  'then',
  'them',
  'there',
  'here',
  'give',
  'make',
  'let',
]);

function words(intent: string): string[] {
  const withoutCode = intent.replace(/`[^`]*`/g, ' ');
  return (withoutCode.toLowerCase().match(/[a-z][a-z0-9-]*/g) ?? []).filter(
    (w) => w.length >= 3 && !STOP.has(w),
  );
}

/** The first word of the first intent that all intents share ('' when they share none). */
export function scopeKeyword(intents: string[]): string {
  const [first, ...rest] = intents;
  if (first === undefined) return '';
  const others = rest.map((i) => new Set(words(i)));
  return words(first).find((w) => others.every((set) => set.has(w))) ?? '';
}
