import { describe, expect, it } from 'vitest';
import { mineSessions } from './mine.js';
import { NO_REQUEST_LABELS, NO_REQUEST_TAG, isReplayable, replayableTasks } from './no-request.js';
import { teamExportTasks } from './team-tasks.js';
import { read, run, session } from './test-helpers.js';

// Invented sessions: three that only greet (in three languages), and a recurring task.
const greetings = ['hi', 'привет', 'hello!'].map((prompt, i) =>
  session([{ prompt, reply: 'Hello! What can I do for you?' }], { key: `claude:g${i}` }),
);
const dependencies = ['zod', 'pino', 'dayjs'].map((pkg, i) =>
  session(
    [
      {
        prompt: `add ${pkg} as a dependency`,
        actions: [read('/work/app/package.json'), run(`pnpm add ${pkg}`)],
      },
    ],
    {
      key: `claude:d${i}`,
    },
  ),
);

describe('sessions that asked for nothing', () => {
  const mined = mineSessions([...greetings, ...dependencies], { project: '/work/app', maxTasks: 10 });
  const idle = mined.clusters.find((c) => c.noRequest === true);

  it('form one kind of their own, shown after the kinds that asked for something', () => {
    expect(idle?.label).toBe(NO_REQUEST_LABELS.greeting);
    expect(idle?.members.sort()).toEqual(['claude:g0', 'claude:g1', 'claude:g2']);
    expect(mined.clusters.at(-1)).toBe(idle);
    expect(mined.dropped.no_request).toBe(3);
  });

  it('have tasks that say so, with nothing to judge', () => {
    const tasks = mined.tasks.filter((t) => t.derived_from === idle?.id);
    expect(tasks).toHaveLength(3);
    for (const task of tasks) {
      expect(task.tags).toContain(NO_REQUEST_TAG);
      expect(task.reference_kind).toBe('none');
      expect(isReplayable(task)).toBe(false);
    }
    expect(
      replayableTasks(mined.tasks)
        .map((t) => t.source_sessions[0])
        .sort(),
    ).toEqual(['claude:d0', 'claude:d1', 'claude:d2']);
  });

  it('are never exported to a team', () => {
    const exported = teamExportTasks(mined.tasks, new Set(mined.clusters.map((c) => c.id)), {
      project: '/work/app',
      home: '/home/u',
    });
    expect(exported).toHaveLength(3);
    expect(exported.every(isReplayable)).toBe(true);
  });

  it('keep their kind across nights (its id does not depend on which sessions greeted)', () => {
    const later = mineSessions([...greetings.slice(1), ...dependencies], {
      project: '/work/app',
      maxTasks: 10,
    });
    expect(later.clusters.find((c) => c.noRequest === true)?.id).toBe(idle?.id);
  });
});
