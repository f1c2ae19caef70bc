/** How a value captured by a config correction pattern is read: quotes and trailing punctuation go. */

/** Bare tokens too vague to check ("use it instead of that"). */
// prettier-ignore
const VAGUE_TOKENS: ReadonlySet<string> = new Set([
  'it', 'this', 'that', 'these', 'those', 'them', 'one', 'the', 'a', 'an', 'something', 'anything',
  'what', 'which', 'there', 'here', 'me', 'you', 'we',
]);

/** Strips wrapping brackets and quotes; leading dots and dashes stay (`./x`, `--force`). */
export function trimToken(raw: string): string {
  return stripTrailingPunctuation(raw.replace(/^[([{<"'“‘\x60]+/, ''));
}

function stripTrailingPunctuation(token: string): string {
  return token.replace(/[.,;:!?)\]}>"'”’\x60]+$/, '');
}

/** Strips quotes and trailing punctuation; returns null for empty or vague bare tokens. */
export function cleanSpan(raw: string): string | null {
  const quoted = /^([\x60"'“‘])([\s\S]*)([\x60"'”’])$/.exec(raw);
  if (quoted != null) {
    const inner = (quoted[2] ?? '').trim();
    return inner === '' ? null : inner;
  }
  const token = trimToken(raw);
  if (token.length < 2 || !/[\p{L}\p{N}]/u.test(token)) return null;
  return VAGUE_TOKENS.has(token.toLowerCase()) ? null : token;
}
