import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  assertNoControlCharacters,
  cronEscape,
  cronUnescape,
  shellQuote,
  shellSplit,
} from './shell-quote.js';

const HOSTILE = [
  '',
  'plain',
  "it's",
  "''",
  '"double"',
  '$HOME ${HOME} $(id) `id`',
  '100% done %% \\%',
  'a;b && c || d | e > f < g & h',
  '*?[]{}~#!',
  'back\\slash\\',
  'spaces  and\ttab-free',
  'ünïcødé ✓ 漢字',
  '-n',
  'x=1',
];

/** Run words through cron's % handling and then /bin/sh, and get back the argv sh produced. */
function throughCronAndSh(words: string[]): string[] {
  const line = cronEscape(words.map(shellQuote).join(' '));
  const command = cronUnescape(line);
  const r = spawnSync('/bin/sh', ['-c', `for a in ${command}; do printf '%s\\0' "$a"; done`], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent' },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

describe('quoting for crontab lines', () => {
  it('every hostile word reaches the program unchanged after cron and sh', () => {
    expect(throughCronAndSh(HOSTILE)).toEqual(HOSTILE);
  });

  it('random printable words survive too', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ` !"#$%&'()*+,-./0123456789:;<=>?@AZaz[\\]^_\`{|}~é`;
    const words = Array.from({ length: 200 }, () =>
      Array.from(
        { length: 1 + Math.floor(rand() * 12) },
        () => alphabet[Math.floor(rand() * alphabet.length)],
      ).join(''),
    );
    expect(throughCronAndSh(words)).toEqual(words);
  });

  it('leaves no bare % for cron, and reads its own lines back', () => {
    const line = cronEscape(HOSTILE.map(shellQuote).join(' '));
    expect(line).not.toMatch(/(^|[^\\])%/);
    expect(shellSplit(cronUnescape(line))).toEqual(HOSTILE);
  });

  it.each(['a\nb', 'a\rb', 'tab\there', 'nul\u0000', 'esc\u001b[31m', 'del\u007f', 'ls\u2028'])(
    'refuses control characters (%j)',
    (value) => {
      expect(() => assertNoControlCharacters('the project path', value)).toThrow('control character');
    },
  );
});
