import { describe, expect, it } from 'vitest';
import { identifierParts, requestTokens } from './request-tokens.js';

describe('requestTokens', () => {
  it('masks the details a request varies in: paths, identifiers, numbers, quoted names, code', () => {
    expect(
      requestTokens('fix the failing test in packages/api/src/cart.test.ts (TS2322) "rounds half" `x`'),
    ).toEqual(['fix', 'the', 'failin', 'fail~', 'test', 'in', '<path>', '<id>', '<q>', '<code>']);
    expect(requestTokens('bump to 3.2.1 and see https://example.com/a?b=1')).toEqual([
      'bump',
      'to',
      '<n>',
      'and',
      'see',
      '<url>',
    ]);
  });

  it('keeps the parts of an identifier as weak tokens', () => {
    expect(requestTokens('make TestInsertEventsCopy pass')).toEqual([
      'make',
      '<id>',
      '~test',
      '~insert',
      '~events',
      '~copy',
      'pass',
    ]);
    expect(identifierParts('add_due_date')).toEqual(['add', 'due', 'date']);
  });

  it('masks words the session used as command arguments or file names', () => {
    const details = new Set(['tenacity', 'wishlist']);
    expect(requestTokens('add tenacity, then build the Wishlist screen', details)).toEqual([
      'add',
      '<d>',
      'then',
      'build',
      'buil~',
      'the',
      '<d>',
      'screen',
      'scre~',
    ]);
    expect(requestTokens('add `tenacity` please', details)).toEqual(['add', '<d>', 'please', 'plea~']);
  });

  it('cuts words to a prefix, in any alphabet, so inflections meet', () => {
    expect(requestTokens('installing installs')).toEqual(['instal', 'inst~', 'instal', 'inst~']);
    expect(requestTokens('fails failure')).toEqual(['fails', 'fail~', 'failur', 'fail~']);
    expect(requestTokens('добавь логирование')).toEqual(['добавь', 'доба~', 'логиро', 'логи~']);
  });

  it('reads scripts written without spaces as character bigrams', () => {
    expect(requestTokens('添加依赖')).toEqual(['添加', '加依', '依赖']);
    const a = new Set(requestTokens('请添加依赖'));
    const b = new Set(requestTokens('帮我添加一个依赖'));
    expect([...a].filter((t) => b.has(t))).toEqual(['添加', '依赖']);
  });

  it('caps a long pasted prompt', () => {
    expect(requestTokens('x '.repeat(500))).toHaveLength(80);
  });
});
