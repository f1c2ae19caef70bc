import { describe, expect, it } from 'vitest';
import {
  BLOCK_BEGIN,
  BLOCK_END,
  markerFor,
  parseCrontab,
  projectDigest,
  renderCrontab,
  withEntry,
  withoutEntries,
} from './crontab-block.js';

const entry = (project: string, cmd = 'true') => {
  const digest = projectDigest(project);
  return { digest, line: `17 3 * * *  ${cmd}  ${markerFor(digest)}` };
};
const add = (text: string, project: string, cmd?: string) =>
  renderCrontab(withEntry(parseCrontab(text), entry(project, cmd)));
const remove = (text: string, project: string | null) =>
  renderCrontab(withoutEntries(parseCrontab(text), project === null ? null : projectDigest(project)));

const USER_TABLES = [
  '',
  'MAILTO=me@example.com\n# my backup\n0 1 * * * /usr/local/bin/backup --all\n',
  'SHELL=/bin/bash\n0 1 * * * echo "no trailing newline"',
  '# windows line endings\r\n5 5 * * * true\r\n',
  '\n\n# blank lines around\n\n',
  // Bytes that are not UTF-8 (a latin1 é) must survive as they are.
  Buffer.from([0x23, 0x20, 0xe9, 0x0a]).toString('latin1'),
];

describe('the managed crontab block', () => {
  it.each(USER_TABLES)('leaves the user text byte for byte through schedule/unschedule (%j)', (user) => {
    const one = add(user, '/p/a');
    expect(one.startsWith(`${BLOCK_BEGIN}\n`)).toBe(true);
    expect(one.endsWith(user)).toBe(true);
    const two = add(one, '/p/b');
    expect(two.endsWith(user)).toBe(true);
    expect(parseCrontab(two).entries.map((e) => e.digest)).toEqual([
      projectDigest('/p/a'),
      projectDigest('/p/b'),
    ]);
    expect(remove(two, '/p/a').endsWith(user)).toBe(true);
    expect(remove(remove(two, '/p/a'), '/p/b')).toBe(user);
    expect(remove(two, null)).toBe(user);
  });

  it('replaces a project line in place and is a fixed point when nothing changes', () => {
    const one = add('0 1 * * * x\n', '/p/a', 'old');
    const two = add(add(one, '/p/b'), '/p/a', 'new');
    expect(two).toContain('new');
    expect(two).not.toContain('old');
    expect(parseCrontab(two).entries.map((e) => e.digest)[0]).toBe(projectDigest('/p/a'));
    expect(add(two, '/p/a', 'new')).toBe(two);
  });

  it('keeps a block the user moved, and the text on both sides of it', () => {
    const before = 'A=1\n0 1 * * * first\n';
    const after = '0 2 * * * last\n# tail';
    const text = `${before}${BLOCK_BEGIN}\n${entry('/p/a').line}\n${BLOCK_END}\n${after}`;
    const added = add(text, '/p/b');
    expect(added.startsWith(before)).toBe(true);
    expect(added.endsWith(after)).toBe(true);
    expect(remove(remove(added, '/p/a'), '/p/b')).toBe(before + after);
  });

  it('a marker is a digest only: no project text in the comment', () => {
    const e = entry('/home/me/secret project');
    expect(markerFor(e.digest)).toMatch(/^# skillopt-sleep project-sha256=[0-9a-f]{64}$/);
  });

  it('an unterminated block is not ours to edit: the text is kept and a new block goes on top', () => {
    const broken = `${BLOCK_BEGIN}\n0 1 * * * x\n`;
    const added = add(broken, '/p/a');
    expect(added.endsWith(broken)).toBe(true);
    expect(parseCrontab(added).entries).toHaveLength(1);
  });
});
