/**
 * No regular expression reaches a written document: a tasks file whose checks are patterns (no
 * sentence of the user behind them) makes the mock optimizer write "Always match `…`" rules; the
 * screen of edits refuses them with the reason, and nothing the night stages reads as a pattern.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { patternReason } from '../../src/trainer/plain-words.js';
import { runCli, sandbox } from './cli-helpers.js';

const commit = (i: number, split: string) => ({
  id: `commit_${i}`,
  intent: `Write the commit message for change ${i}`,
  outcome: 'fail',
  reference_kind: 'rule',
  reference: `feat: change ${i}`,
  attempted_solution: `Changed thing ${i}`,
  judge: { kind: 'rule', checks: [{ op: 'regex', arg: '^(feat|fix): ' }] },
  split,
  source_sessions: [`s${i}`],
});

const wrap = (i: number, split: string) => ({
  id: `answer_${i}`,
  intent: `Density question ${i}`,
  outcome: 'fail',
  reference_kind: 'rule',
  reference: 'answer: 1000 kg/m3',
  attempted_solution: 'about a thousand',
  judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'kg/m3' }] },
  split,
  source_sessions: [`w${i}`],
});

describe('plain words in every written document', () => {
  it('refuses a pattern rule and stages only sentences', async () => {
    const box = sandbox();
    const file = path.join(box.project, 'tasks.json');
    const tasks = [0, 1, 2, 3].flatMap((i) => [
      commit(i, i < 2 ? 'train' : 'val'),
      wrap(i, i < 2 ? 'train' : 'val'),
    ]);
    writeFileSync(
      file,
      JSON.stringify({ format: 'skillopt_sleep.tasks.v1', project: box.project, reviewed: true, tasks }),
    );
    const r = await runCli(box, ['run', '--json', '--tasks-file', file]);
    expect(r.code, r.stderr).toBe(0);
    const report = r.json();
    const refused = (report.rejected_edits as Array<{ content: string; reason: string }>).filter((e) =>
      e.reason.startsWith('not plain words'),
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]?.content).toContain('Always match `^(feat|fix): `.');
    // The other rule is learned and staged; no staged line reads as a pattern.
    expect(report.accepted).toBe(true);
    const dir = String(report.staging_dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
      targets: Array<{ proposedFile: string }>;
    };
    for (const t of manifest.targets)
      for (const line of readFileSync(path.join(dir, t.proposedFile), 'utf8').split('\n'))
        expect(patternReason(line), line).toBeNull();
    expect(readFileSync(path.join(dir, 'rules.json'), 'utf8')).toContain('kg/m3');
  });
});
