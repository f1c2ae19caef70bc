import { describe, expect, it } from 'vitest';
import { mineSessions } from './mine.js';
import { edit, read, session } from './test-helpers.js';

describe('kind ids', () => {
  it('are unique in a night, even when two first requests normalise alike', () => {
    // A request in a script without spaces written around a path is one "word": both are `<path>`.
    const sessions = [
      session([{ prompt: '检查/work/app/src/a.ts的逻辑', actions: [read('/work/app/src/a.ts')] }], {
        key: 'claude:a',
      }),
      session(
        [{ prompt: '修改/work/app/src/b.css里的样式', actions: [edit('/work/app/src/b.css', 'a', 'b')] }],
        { key: 'claude:b' },
      ),
    ];
    const mined = mineSessions(sessions, { project: '/work/app', maxTasks: 10 });
    expect(mined.clusters).toHaveLength(2);
    expect(new Set(mined.clusters.map((c) => c.id)).size).toBe(2);
    expect(new Set(mined.tasks.map((t) => t.derived_from)).size).toBe(2);
    // The kind of the earliest first session keeps the plain id: later nights find it again.
    const again = mineSessions(sessions.slice(0, 1), { project: '/work/app', maxTasks: 10 });
    expect(mined.clusters.map((c) => c.id)).toContain(again.clusters[0]?.id);
  });
});
