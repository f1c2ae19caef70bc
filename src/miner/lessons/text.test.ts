import { describe, expect, it } from 'vitest';
import { clauses, endsWithQuestion, jaccard, shoutedWords, textTokens, wordUnits } from './text.js';

describe('text', () => {
  it('counts words in spaced and unspaced scripts', () => {
    expect(wordUnits('make em')).toBe(2);
    expect(wordUnits('同意')).toBe(1);
    expect(wordUnits('仅改左右边距,不影响上下')).toBe(6);
    expect(wordUnits('используй другой способ')).toBe(3);
  });

  it('splits clauses on punctuation of any script, keeping file names and numbers whole', () => {
    expect(clauses('see ./docs/spec.md for the rules. then stop')).toEqual([
      'see ./docs/spec.md for the rules',
      'then stop',
    ]);
    expect(clauses('去除(web),开始执行')).toEqual(['去除(web)', '开始执行']);
    expect(clauses('列出修改计划，我同意后再执行')).toEqual(['列出修改计划', '我同意后再执行']);
    expect(clauses('costs 1,000 a year: too much')).toEqual(['costs 1,000 a year', 'too much']);
  });

  it('tokenizes unspaced scripts into character pairs, spaced ones into words', () => {
    expect([...textTokens('同意后执行')]).toEqual(['同意', '意后', '后执', '执行']);
    expect(jaccard(textTokens('use pnpm here'), textTokens('here use pnpm'))).toBe(1);
  });

  it('knows a question mark of several scripts', () => {
    expect(endsWithQuestion('why npm?')).toBe(true);
    expect(endsWithQuestion('是否可以直接去掉？')).toBe(true);
    expect(endsWithQuestion('هل هذا صحيح؟')).toBe(true);
    expect(endsWithQuestion('do it.')).toBe(false);
  });

  it('finds shouted ordinary words, not acronyms or a shouted heading', () => {
    const ordinary = (w: string): boolean => w === 'never' || w === 'only';
    expect(shoutedWords('you must NEVER do that', ordinary)).toEqual(['NEVER']);
    expect(shoutedWords('update the API docs', ordinary)).toEqual([]);
    expect(shoutedWords('NEVER ONLY ALWAYS', ordinary)).toEqual([]);
  });
});
