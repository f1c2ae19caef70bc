import { describe, expect, it } from 'vitest';
import { HARVEST_SOURCES } from '../config/choices.js';
import { emptyTask, type TaskRecord } from '../core/task.js';
import { MEMORY_FILE_ROWS, memoryFileOf } from './memory-files.js';
import { memoryRoutes } from './memory-routes.js';

const task = (id: string, sessions: string[], lessons: string[] = []): TaskRecord =>
  emptyTask({ id, intent: id, source_sessions: sessions, tags: lessons.map((l) => `lesson:${l}`) });

const lesson = (id: string, sessions: string[]) => ({
  id,
  evidence: sessions.map((session) => ({ session })),
});

describe('memory routes', () => {
  it('sends a lesson to the file of the agent whose sessions taught it', () => {
    const routes = memoryRoutes(
      [task('a', ['claude:1'], ['lesson_c']), task('b', ['codex:2'], ['lesson_x'])],
      [lesson('lesson_c', ['claude:1']), lesson('lesson_x', ['codex:2'])],
      'claude',
    );
    expect(routes.map((r) => [r.file, r.chosenBy, r.tasks.map((t) => t.id)])).toEqual([
      ['CLAUDE.md', 'claude', ['a']],
      ['AGENTS.md', 'codex', ['b']],
    ]);
  });

  it('sends a lesson two agents taught to AGENTS.md, whatever session the task came from', () => {
    const shared = lesson('lesson_s', ['claude:1', 'cursor-cli:2']);
    const routes = memoryRoutes(
      [task('a', ['claude:1'], ['lesson_s']), task('b', ['cursor-cli:2'], ['lesson_s'])],
      [shared],
      'claude',
    );
    expect(routes).toHaveLength(1);
    expect(routes[0]).toMatchObject({ file: 'AGENTS.md', chosenBy: 'shared' });
    expect(routes[0]?.tasks.map((t) => t.id)).toEqual(['a', 'b']);
  });

  it('reads a task without lessons by its own sessions, and one without known sessions by the fallback', () => {
    const routes = memoryRoutes(
      [task('g', ['gemini:1']), task('f', ['sess_0']), task('f2', [])],
      [],
      'cursor-cli',
    );
    expect(routes.map((r) => [r.file, r.tasks.length])).toEqual([
      ['.cursor/rules/skillopt-sleep-learned.mdc', 2],
      ['GEMINI.md', 1],
    ]);
  });

  it('has one row per source: every source a harvest reads, none twice', () => {
    for (const source of HARVEST_SOURCES) expect(memoryFileOf(source), source).not.toBeNull();
    const sources = MEMORY_FILE_ROWS.map((r) => r.source);
    expect(new Set(sources).size).toBe(sources.length);
    for (const s of sources) expect(memoryFileOf(s)).toMatch(/\S/);
    expect(memoryFileOf('no-such-agent')).toBeNull();
  });
});
