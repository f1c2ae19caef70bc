/**
 * The mock optimizer's reading of a failed answer-graded task: it compares the target's answer with the
 * hidden reference word by word (as the reference's analyst sees a "Hidden Reference" section) and writes
 * the grammar rules that would turn one into the other. A word replaced in place becomes
 * `Use "X" instead of "Y".`, an extra word becomes `Never include "Y".`; missing words give no rule (the
 * grammar cannot place them). The target never sees the reference: it only follows the rules.
 */
import { extractAnswer, normalizeAnswer } from '../../replay/judges/qa-match.js';
import { EVERYWHERE, formatRule, type GrammarRule } from './rule-grammar.js';

interface Token {
  raw: string;
  norm: string;
}

const tokens = (text: string): Token[] =>
  text
    .split(/\s+/)
    .map((raw) => ({ raw, norm: normalizeAnswer(raw) }))
    // Articles and bare punctuation do not count for exact match, so they need no rule either.
    .filter((t) => t.norm !== '');

/** Longest common subsequence of normalised tokens, as index pairs. */
function lcsPairs(a: Token[], b: Token[]): Array<[number, number]> {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) {
      const row = dp[i] as number[];
      row[j] =
        a[i]?.norm === b[j]?.norm
          ? (dp[i + 1]?.[j + 1] ?? 0) + 1
          : Math.max(dp[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]?.norm === b[j]?.norm) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if ((dp[i + 1]?.[j] ?? 0) >= (dp[i]?.[j + 1] ?? 0)) i++;
    else j++;
  }
  return pairs;
}

/** The rules that rewrite `answer` toward `reference`. */
export function diffRules(response: string, reference: string): GrammarRule[] {
  const a = tokens(extractAnswer(response));
  const b = tokens(reference);
  const rules: GrammarRule[] = [];
  const gap = (ga: Token[], gb: Token[]): void => {
    const n = Math.min(ga.length, gb.length);
    for (let k = 0; k < ga.length; k++) {
      const extra = ga[k];
      if (!extra) continue;
      const use = k < n ? gb[k] : undefined;
      rules.push(
        use
          ? { kind: 'use-instead', use: use.raw, instead: extra.raw, scope: EVERYWHERE }
          : { kind: 'never', text: extra.raw, scope: EVERYWHERE },
      );
    }
  };
  let ai = 0;
  let bi = 0;
  for (const [i, j] of [...lcsPairs(a, b), [a.length, b.length] as [number, number]]) {
    gap(a.slice(ai, i), b.slice(bi, j));
    ai = i + 1;
    bi = j + 1;
  }
  return rules;
}

/** Rules supported by several failed tasks come first (the mock's ranking). */
export function answerDiffProposals(
  failures: Array<{ response: string; reference: string; taskId: string }>,
): Array<{ content: string; support: string[] }> {
  const byRule = new Map<string, string[]>();
  for (const f of failures) {
    for (const rule of diffRules(f.response, f.reference)) {
      const key = formatRule(rule);
      const ids = byRule.get(key) ?? [];
      if (!ids.includes(f.taskId)) ids.push(f.taskId);
      byRule.set(key, ids);
    }
  }
  return [...byRule.entries()]
    .map(([content, support], order) => ({ content, support, order }))
    .sort((x, y) => y.support.length - x.support.length || x.order - y.order)
    .map(({ content, support }) => ({ content, support }));
}
