/**
 * The mock optimizer on a user's own skill (`learnedBlock: 'whole'`): a line of the document whose rule
 * demands what a failed check's rule forbids (or forbids what it demands) is the cause to fix. It is
 * replaced by the fixing rule, or deleted when the document already states that rule elsewhere (two
 * lines that contradict each other: the one the evidence refutes goes).
 */
import type { GrammarRule } from './rule-grammar.js';
import { parseRuleLine } from './rule-grammar.js';

interface Terms {
  demands: string[];
  forbids: string[];
}

/** A term as the answer would hold it: a command, a path or a word alike (the verb does not matter). */
const key = (text: string): string => text.trim().toLowerCase();

function termsOf(rule: GrammarRule): Terms {
  switch (rule.kind) {
    case 'use-instead':
      return { demands: [key(rule.use)], forbids: [key(rule.instead)] };
    case 'always':
      return { demands: [key(rule.text)], forbids: [] };
    case 'never':
      return { demands: [], forbids: [key(rule.text)] };
    case 'act':
      return rule.never
        ? { demands: [], forbids: [key(rule.text)] }
        : { demands: [key(rule.text)], forbids: [] };
    default:
      return { demands: [], forbids: [] };
  }
}

const meets = (a: readonly string[], b: readonly string[]): boolean => a.some((t) => b.includes(t));

/** The document's bullet or paragraph lines whose rule contradicts `fix` (their text as written). */
export function contradictingLines(doc: string, fix: GrammarRule): string[] {
  const wanted = termsOf(fix);
  const out: string[] = [];
  for (const line of doc.split('\n')) {
    const rule = parseRuleLine(line);
    if (!rule) continue;
    const have = termsOf(rule);
    if (meets(have.demands, wanted.forbids) || meets(have.forbids, wanted.demands))
      out.push(line.replace(/^\s*[-*]\s+/, '').trim());
  }
  return out;
}
