/** The fake projects every source's sessions are about, and slot filling for request templates. */
import type { Lang } from './filler.js';
import type { Rng } from './rng.js';
import type { TaskFamily } from './words.js';
import {
  BRANCHES,
  DIRS,
  ENV_NAMES,
  NOUNS,
  PY_DIRS,
  PY_PACKAGES,
  TASKS,
  TS_PACKAGES,
  VERBS,
  past,
  plural,
} from './words.js';

export interface Project {
  index: number;
  root: string;
  name: string;
  lang: Lang;
  /** Package manager the project uses, and the one users "correct" towards. */
  pm: string;
  altPm: string;
  branch: string;
  repo: string;
  headCommit: string;
  /** Paths relative to root. */
  files: string[];
  testFiles: string[];
  /** Recurring requests of this project, weighted (a project has its habits). */
  tasks: (readonly [TaskFamily, number])[];
  /** Relative activity, so some projects have many more sessions than others. */
  weight: number;
}

export function makeProjects(rng: Rng, count: number): Project[] {
  const projects: Project[] = [];
  const commitMsg = TASKS.find((t) => t.id === 'commit-msg');
  for (let i = 1; i <= count; i++) {
    const lang: Lang = i % 5 === 0 ? 'py' : 'ts';
    const ext = lang === 'py' ? 'py' : 'ts';
    const dirs = lang === 'py' ? PY_DIRS : DIRS;
    const files = new Set<string>();
    const fileCount = rng.int(25, 60);
    while (files.size < fileCount) {
      const base =
        lang === 'py' ? `${rng.pick(NOUNS)}_${rng.pick(NOUNS)}` : `${rng.pick(NOUNS)}-${rng.pick(NOUNS)}`;
      files.add(`${rng.pick(dirs)}/${base}.${ext}`);
    }
    const fileList = [...files];
    const testFiles = fileList
      .slice(0, Math.max(4, Math.floor(fileList.length / 3)))
      .map((f) =>
        lang === 'py' ? `tests/test_${f.slice(f.lastIndexOf('/') + 1)}` : f.replace(/\.ts$/, '.test.ts'),
      );
    const pm = lang === 'py' ? 'pip' : rng.pick(['npm', 'npm', 'pnpm', 'yarn']);
    const altPm = lang === 'py' ? 'uv' : pm === 'pnpm' ? 'npm' : 'pnpm';
    const habits = new Set<TaskFamily>();
    const habitCount = rng.int(5, 8);
    while (habits.size < habitCount) habits.add(rng.pick(TASKS));
    if (commitMsg !== undefined) habits.add(commitMsg);
    projects.push({
      index: i,
      root: `/work/proj-${i}`,
      name: `proj-${i}`,
      lang,
      pm,
      altPm,
      branch: rng.pick(BRANCHES),
      repo: `acme/proj-${i}`,
      headCommit: rng.hex(40),
      files: fileList,
      testFiles,
      tasks: [...habits].map((t) => [t, rng.int(1, 6)] as const),
      weight: 1 + rng.int(0, 6),
    });
  }
  return projects;
}

/** Per-session slot values; `pm` can change when the user corrects it. */
export interface Slots {
  pkg: string;
  file: string;
  file2: string;
  fn: string;
  fn2: string;
  test: string;
  pm: string;
  pm2: string;
  method: string;
  route: string;
  noun: string;
  env: string;
  table: string;
  col: string;
  error: string;
}

export function makeSlots(rng: Rng, project: Project, fnName: () => string, error: string): Slots {
  const lang = project.lang;
  return {
    pkg: rng.pick(lang === 'py' ? PY_PACKAGES : TS_PACKAGES),
    file: rng.pick(project.files),
    file2: rng.pick(project.files),
    fn: fnName(),
    fn2: fnName(),
    test: rng.pick(project.testFiles),
    pm: project.pm,
    pm2: project.altPm,
    method: rng.pick(['GET', 'GET', 'POST', 'PUT', 'DELETE']),
    route: `${plural(rng.pick(NOUNS))}${rng.chance(0.4) ? '/:id' : ''}`,
    noun: rng.pick(NOUNS),
    env: rng.pick(ENV_NAMES),
    table: plural(rng.pick(NOUNS)),
    col: `${rng.pick(['last', 'first', 'is', 'has'])}_${past(rng.pick(VERBS))}`,
    error,
  };
}

export function fill(template: string, slots: Slots): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = (slots as unknown as Record<string, string | undefined>)[key];
    return value ?? whole;
  });
}
