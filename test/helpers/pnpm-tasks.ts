/**
 * A tasks file for nights about one rule, "use pnpm instead of npm": every install task wants it, and a
 * publishing task wants the npm command itself (a candidate that over-applies the rule breaks it).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export const installTask = (id: string, pkg: string, split: string) => ({
  id,
  intent: `Add ${pkg} to the web app`,
  attempted_solution: `Run npm install ${pkg} and import it.`,
  reference_kind: 'rule',
  judge: {
    kind: 'rule',
    checks: [
      { op: 'contains', arg: 'pnpm' },
      { op: 'not_mentions', arg: 'npm' },
    ],
  },
  tags: ['kind:deps'],
  split,
});

export const publishTask = (id: string, split: string) => ({
  id,
  intent: 'Release the package',
  attempted_solution: 'Run npm publish --access public.',
  reference_kind: 'rule',
  judge: { kind: 'rule', checks: [{ op: 'regex', arg: '\\bnpm publish' }] },
  tags: ['kind:deps'],
  split,
});

/** `tasks` as an unreviewed tasks file `name` in `dir`. */
export function writeTasksFile(dir: string, name: string, tasks: object[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ format: 'skillopt_sleep.tasks.v1', reviewed: false, tasks }));
  return file;
}
