/**
 * Issue 37, item 10: an adopt or revert killed in the middle of an atomic write leaves its temp file
 * (`.tmp-<pid>-<hex>`; once a 2.3 MB partial skill in the live skills folder). The files are placed
 * here as such a kill leaves them (named by a process that has exited); the next command removes them
 * from the folders adopt and revert write, and nothing else: not a live writer's, not a user's file,
 * not one in a folder no proposal targets.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { deadIdentity } from '../helpers/killed-here.js';
import { runCli, sandbox } from './cli-helpers.js';
import { stageFixture } from './proposal-fixture.js';

const tempName = (pid: number, hex: string): string => `.tmp-${pid}-${hex.repeat(3)}`;

it('the next command removes the temp files of killed writes, and only those', async () => {
  const box = sandbox();
  const f = await stageFixture(box);
  const gone = deadIdentity().pid;
  const skills = path.dirname(f.alpha);
  mkdirSync(path.join(f.staged.dir, 'backup'), { recursive: true });
  mkdirSync(path.join(box.project, 'docs'), { recursive: true });
  const leftovers = [
    path.join(skills, tempName(gone, 'ab12')),
    path.join(f.staged.dir, tempName(gone, 'cd34')),
    path.join(f.staged.dir, 'backup', tempName(gone, 'ef56')),
  ];
  const kept = [
    path.join(skills, tempName(process.pid, 'ab12')), // this process is alive: it may be writing
    path.join(skills, '.tmp-notes'),
    path.join(box.project, 'docs', tempName(gone, 'ab12')), // no proposal writes there
  ];
  writeFileSync(leftovers[0] ?? '', 'partial skill '.repeat(170_000));
  for (const file of [...leftovers.slice(1), ...kept]) writeFileSync(file, 'x');

  const status = await runCli(box, ['status']);
  expect(status.code, status.stderr).toBe(0);
  for (const file of leftovers) expect(existsSync(file), file).toBe(false);
  for (const file of kept) expect(existsSync(file), file).toBe(true);

  const adopt = await runCli(box, ['adopt', '--json']);
  expect(adopt.code, adopt.stderr).toBe(0);
});
