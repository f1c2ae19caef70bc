/**
 * A night a strong model drove (`--backend handoff`, every request answered by a fresh model that saw
 * only the request), recorded and replayed here with `--replay`: on the sessions of
 * `lessons-night-corpus.ts` the night reads each session's follow-ups, judges each task by the lessons
 * its own sessions taught (a check on what the answer runs, or the user's words as a rubric), and
 * learns a lesson in words, never a regular expression. Re-record it when a prompt it sends changes
 * (see test/fixtures/lessons-night/README.md).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';
import { writeLessonsNightCorpus } from './lessons-night-corpus.js';

const RECORDING = path.resolve(import.meta.dirname, '../fixtures/lessons-night/recording.jsonl');

interface LessonJson {
  id: string;
  rule: string;
  kind: string;
  support: number;
  checks: Array<{ op: string; arg?: string }>;
  criterion: string | null;
  evidence: Array<{ session: string; turn: number; sentence: string }>;
}

interface TaskJson {
  tags: string[];
  judge: { checks?: Array<{ op: string; arg?: string }>; rubric_criteria?: string[]; rubric?: string };
}

/** What a regular expression looks like inside a rule: classes, anchors and escapes. */
const REGEX_MARKS = /\\[bdswBDSW]|\[\^|\(\?[:=!<]|\.\*|\^\[|\$`/;

describe('a recorded strong-model night on lessons', () => {
  const box = sandbox();
  writeLessonsNightCorpus(box.home, box.project);
  mkdirSync(path.join(box.project, '.skillopt-sleep'), { recursive: true });
  writeFileSync(
    path.join(box.project, '.skillopt-sleep', 'config.json'),
    JSON.stringify({ lookback_hours: 0, llm_mine: false }),
  );
  const replay = ['--backend', 'handoff', '--replay', RECORDING, '--replay-match', 'hash'];

  it('replays to the night it recorded: the model learns the test-runner lesson in words', async () => {
    const r = await runCli(box, ['run', '--json', ...replay]);
    expect(r.code, r.stderr).toBe(0);
    const report = r.json();
    // The commit convention and the migration rule were each taught for one task: one-offs, whose
    // rule no held-out task could show, so they are not replayed.
    expect(report).toMatchObject({
      accepted: true,
      gate_action: 'accept_new_best',
      n_tasks: 7,
      n_unjudged: 3,
      n_one_off: 3,
      n_accepted_edits: 1,
      n_rejected_edits: 1,
      requests: { reflect: 1 },
    });
    // Held-out (validation) score of the recorded night, before and after its edit.
    expect(report.baseline as number).toBe(0);
    expect(report.candidate as number).toBe(1);
    // The test-runner edit fixes its own validation tasks and gets no trial; the package-manager
    // edit's trial shows nothing on them (no validation task installs a package), so it is refused:
    // 13 readings, 11 attempts, 1 reflection.
    expect(Object.keys((report.requests as { replays: object }).replays)).toEqual([
      'baseline_val',
      'train',
      'gate_trial',
      'prune_trial',
    ]);
    expect(report.calls).toBe(25);
    const rejected = report.rejected_edits as Array<{ content: string }>;
    expect(rejected.map((e) => e.content).join('\n')).toMatch(/pnpm/);
    const learned = report.learned_rules as string[];
    expect(learned).toHaveLength(1);
    expect(learned[0]).toMatch(/vitest/);
    expect(learned[0]).toMatch(/--run/);
    for (const rule of learned) expect(rule).not.toMatch(REGEX_MARKS);
    const skill = readFileSync(
      path.join(
        box.project,
        '.skillopt-sleep',
        'proposals',
        String(report.proposal_id),
        'files',
        '1-SKILL.md',
      ),
      'utf8',
    );
    expect(skill).toContain(learned[0]);
  });

  it('kept what the model read: lessons in the user’s words, each judging only its own tasks', async () => {
    const r = await runCli(box, ['harvest', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    const lessons = out.lessons as LessonJson[];
    const tasks = out.tasks as TaskJson[];
    for (const lesson of lessons) expect(lesson.rule).not.toMatch(REGEX_MARKS);
    // Said three ways in three sessions: one lesson, checked on what the answer runs.
    const pnpm = lessons.find((l) => l.checks.some((c) => c.op === 'runs' && c.arg === 'pnpm'));
    expect(pnpm?.support).toBe(3);
    const vitest = lessons.find((l) => l.checks.some((c) => c.op === 'runs' && c.arg === 'vitest --run'));
    expect(vitest?.support).toBe(2);
    // Asked once and not checkable: the user's words judge that session's task, and no other.
    const migrations = lessons.find((l) => /migration/i.test(l.rule));
    expect(migrations?.checks).toEqual([]);
    expect(migrations?.criterion).toBe(migrations?.rule);
    const judgedBy = (lesson: LessonJson | undefined): TaskJson[] =>
      tasks.filter((t) => t.tags.includes(`lesson:${lesson?.id ?? ''}`));
    expect(judgedBy(migrations)).toHaveLength(1);
    for (const task of judgedBy(pnpm))
      expect(task.judge.checks).toEqual([expect.objectContaining({ arg: 'pnpm' })]);
    // A task no lesson applies to carries no judge a replay could score.
    const unjudged = tasks.filter((t) => !t.tags.some((tag) => tag.startsWith('lesson:')));
    for (const task of unjudged) expect(task.judge.checks ?? []).toEqual([]);
  });
});
