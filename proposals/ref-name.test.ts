import { describe, expect, it } from 'vitest';
import { branchNameProblem } from './ref-name.js';

describe('branchNameProblem', () => {
  it.each(['skillopt-sleep/20261203-072200-4', 'team/skill', 'feature-1', 'a.b/c_d', 'ünïcode'])(
    'accepts %s',
    (name) => {
      expect(branchNameProblem(name)).toBeNull();
    },
  );

  it.each([
    ['', 'empty'],
    ['-x', 'starts with "-"'],
    ['HEAD', 'reserved'],
    ['@', 'reserved'],
    ['a b', 'a space'],
    ['a\tb', 'a control character'],
    ['a~1', '"~"'],
    ['a^', '"^"'],
    ['a:b', '":"'],
    ['a?', '"?"'],
    ['a*', '"*"'],
    ['a[b', '"["'],
    ['a\\b', '"\\"'],
    ['a..b', '".."'],
    ['a@{1}', '"@{"'],
    ['/a', 'empty part'],
    ['a/', 'empty part'],
    ['a//b', 'empty part'],
    ['a.', 'ends with "."'],
    ['a/.hidden', 'starts with "."'],
    ['a/b.lock', '".lock"'],
    ['x.lock/b', '".lock"'],
  ])('refuses %j (%s)', (name, why) => {
    expect(branchNameProblem(name)).toContain(why);
  });
});
