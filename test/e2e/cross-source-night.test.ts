/**
 * A night mines across the sources of one project: the same task asked of Claude Code, Codex, OpenCode and
 * Goose is one task kind, and the same correction given in each is one lesson whose evidence names sessions
 * of every source (`cross-source-corpus.ts`). The mock backend, in-process.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';
import { CORRECTION, writeCrossSourceCorpus } from './cross-source-corpus.js';

interface Task {
  occurrences: number;
  source_sessions: string[];
}
interface Lesson {
  id: string;
  support: number;
  checks: Array<{ op: string; arg?: string }>;
  evidence: Array<{ session: string; sentence: string }>;
}

const sourceOf = (key: string): string => key.slice(0, key.indexOf(':'));

describe('a night over one project whose sessions come from four agents', () => {
  const box = sandbox();
  let corpus: string[] = [];
  beforeAll(() => {
    corpus = writeCrossSourceCorpus(box.home, box.project);
  });

  it('harvests every source, and mines one task kind and one lesson with evidence from each', async () => {
    const r = await runCli(box, ['harvest', '--json', '--lookback-hours', '0']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.n_sessions).toBe(corpus.length);
    for (const source of ['claude', 'codex', 'opencode', 'goose'])
      expect((out.sources as Record<string, { new: number }>)[source], source).toMatchObject({ new: 2 });
    const tasks = out.recurring_tasks as Task[];
    expect(tasks, JSON.stringify(tasks)).toHaveLength(1);
    expect(new Set(tasks[0]?.source_sessions)).toEqual(new Set(corpus));
    const lessons = (out.lessons as Lesson[]).filter((l) =>
      l.evidence.some((e) => e.sentence === CORRECTION),
    );
    expect(lessons, JSON.stringify(out.lessons)).toHaveLength(1);
    const lesson = lessons[0]!;
    expect(lesson.support).toBe(corpus.length);
    expect(lesson.evidence.map((e) => e.session).sort()).toEqual([...corpus].sort());
    expect(new Set(lesson.evidence.map((e) => sourceOf(e.session)))).toEqual(
      new Set(['claude', 'codex', 'opencode', 'goose']),
    );
    expect(lesson.checks).toContainEqual(expect.objectContaining({ op: 'runs', arg: 'pnpm' }));
  });

  it('a mock dry-run night replays that task and reports the lesson with its evidence from every source', async () => {
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--json', '--lookback-hours', '0']);
    expect(r.code, r.stderr).toBe(0);
    const night = r.json();
    const lessons = night.lessons as Lesson[];
    const taught = lessons.find((l) => l.evidence.some((e) => e.sentence === CORRECTION));
    expect(taught?.support).toBe(corpus.length);
    expect(new Set(taught?.evidence.map((e) => sourceOf(e.session)))).toEqual(
      new Set(['claude', 'codex', 'opencode', 'goose']),
    );
    const recurring = night.recurring_tasks as Task[];
    expect(recurring.map((t) => t.occurrences)).toEqual([corpus.length]);
    expect(night).toMatchObject({ n_sessions: corpus.length, n_recurring: 1 });
    expect(night.n_tasks as number).toBeGreaterThan(0);
  });
});
