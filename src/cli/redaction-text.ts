/** The redaction report in words: counts per kind, never a value. */
import type { RedactionCounts } from '../store/harvest-runs-repo.js';

/** `3 openai-key, 1 password` (most first, then by name); '' when nothing was redacted. */
export function redactionCountsText(counts: RedactionCounts): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
}

/** `claude 3 openai-key, 1 password; codex 2 github-token`; '' when nothing was redacted. */
export function redactionTotalsText(totals: Record<string, RedactionCounts>): string {
  return Object.entries(totals)
    .map(([source, counts]) => [source, redactionCountsText(counts)] as const)
    .filter(([, text]) => text !== '')
    .map(([source, text]) => `${source} ${text}`)
    .join('; ');
}
