/**
 * A rule the user rejected never comes back in any wording: a mock night learns "pnpm, not npm" from
 * the user's corrections and stages it with its evidence; the user rejects it; a later night whose new
 * corrections say the same thing in other words proposes nothing of it. The same two batches of
 * sessions without the rejection (the control) do propose it again, so the test can fail.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { writeClaudeSessions, type Step } from './lessons-night-corpus.js';
import { patternReason } from '../../src/trainer/plain-words.js';
import { mkdirSync, writeFileSync } from 'node:fs';

const install = (id: string, pkg: string, correction: string): { id: string; steps: Step[] } => ({
  id,
  steps: [
    {
      prompt: `add ${pkg} to the web package`,
      reply: `Added ${pkg}.`,
      actions: [{ run: `npm install ${pkg}` }],
    },
    {
      prompt: correction,
      reply: 'Redone.',
      actions: [{ run: `npm uninstall ${pkg}` }, { run: `pnpm add ${pkg}` }],
    },
    { prompt: 'thanks', reply: 'Done.' },
  ],
});

const FIRST = [
  install('zod', 'zod', 'No — this repo uses pnpm, run `pnpm add zod`'),
  install('dayjs', 'dayjs', 'No — this repo uses pnpm, run `pnpm add dayjs`'),
  install('clsx', 'clsx', 'No — this repo uses pnpm, run `pnpm add clsx`'),
  install('ky', 'ky', 'No — this repo uses pnpm, run `pnpm add ky`'),
];
/** The same lesson, said in other words (and another language), in later sessions. */
const LATER = [
  install('msw', 'msw', 'wrong installer again: we only ever install with `pnpm add msw` here'),
  install('nanoid', 'nanoid', 'encore npm… ici on installe avec `pnpm add nanoid`, jamais npm'),
  install('yup', 'yup', 'wrong installer again: we only ever install with `pnpm add yup` here'),
  install('immer', 'immer', 'encore npm… ici on installe avec `pnpm add immer`, jamais npm'),
];

interface Rule {
  n: number;
  line: string;
  lessons: Array<{ id: string; evidence: Array<{ session: string; turn: number; sentence: string }> }>;
}

function project(box: Sandbox): void {
  mkdirSync(path.join(box.project, '.skillopt-sleep'), { recursive: true });
  writeFileSync(
    path.join(box.project, '.skillopt-sleep', 'config.json'),
    JSON.stringify({ lookback_hours: 0, llm_mine: false }),
  );
}

async function night(box: Sandbox): Promise<{ rules: Rule[]; id: string; proposed: string }> {
  const r = await runCli(box, ['run', '--json']);
  expect(r.code, r.stderr).toBe(0);
  const report = r.json();
  const id = typeof report.proposal_id === 'string' ? report.proposal_id : '';
  if (id === '' || String(report.staging_dir) === '') return { rules: [], id, proposed: '' };
  const show = await runCli(box, ['proposals', 'show', id, '--json']);
  expect(show.code, show.stderr).toBe(0);
  const dir = String(report.staging_dir);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
    targets: Array<{ proposedFile: string }>;
  };
  const proposed = manifest.targets
    .map((t) => readFileSync(path.join(dir, t.proposedFile), 'utf8'))
    .join('\n');
  return { rules: show.json().rules as Rule[], id, proposed };
}

const aboutPnpm = (rules: readonly Rule[]): Rule[] => rules.filter((r) => /pnpm/i.test(r.line));

describe('a rejected rule', () => {
  it('is staged with its evidence, and after `reject` never comes back in other words', async () => {
    const box = sandbox();
    project(box);
    writeClaudeSessions(box.home, box.project, FIRST);
    const first = await night(box);
    const pnpm = aboutPnpm(first.rules);
    expect(pnpm.length, JSON.stringify(first.rules)).toBeGreaterThan(0);
    // Each rule's evidence: the session, the prompt and the user's own sentence.
    const evidence = pnpm[0]?.lessons[0]?.evidence ?? [];
    expect(evidence.length).toBeGreaterThan(0);
    expect(evidence[0]?.session).toMatch(/^claude:/);
    expect(evidence[0]?.sentence).toContain('this repo uses pnpm');
    // No regular expression or check reaches a document.
    for (const line of first.proposed.split('\n')) expect(patternReason(line), line).toBeNull();

    const reject = await runCli(box, [
      'reject',
      first.id,
      '--rule',
      String(pnpm[0]?.n),
      '--reason',
      'we are moving to bun',
      '--json',
    ]);
    expect(reject.code, reject.stderr).toBe(0);
    expect(reject.json().rules_rejected).toHaveLength(1);

    writeClaudeSessions(box.home, box.project, LATER, FIRST.length);
    const later = await night(box);
    expect(aboutPnpm(later.rules)).toEqual([]);
    expect(later.proposed).not.toMatch(/pnpm/i);
    const lessons = await runCli(box, ['lessons', 'list', '--json']);
    expect(lessons.code, lessons.stderr).toBe(0);
    expect(JSON.stringify(lessons.json())).not.toMatch(/pnpm/i);
  });

  it('(control) without the rejection, the same sessions propose it again', async () => {
    const box = sandbox();
    project(box);
    writeClaudeSessions(box.home, box.project, [...FIRST, ...LATER]);
    expect(aboutPnpm((await night(box)).rules).length).toBeGreaterThan(0);
  });

  it('refuses an unknown rule number before writing anything', async () => {
    const box = sandbox();
    project(box);
    writeClaudeSessions(box.home, box.project, FIRST);
    const first = await night(box);
    const r = await runCli(box, ['reject', first.id, '--rule', '99']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has no rule 99');
    expect((await runCli(box, ['adopt', first.id])).code).toBe(0);
  });
});
