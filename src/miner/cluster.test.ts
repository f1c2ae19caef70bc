import { describe, expect, it } from 'vitest';
import { clusterIntents } from './cluster.js';

/** Intents by the task they ask for; the clustering must find exactly these groups. */
const TASKS: Record<string, string[]> = {
  'add-dep': [
    'Add `zod` to the app as a dependency',
    'please install `dayjs`',
    'we need `ky` as a dependency, add it',
    'install the `pino` package',
  ],
  'remove-dep': ['remove `zod` from the app', 'uninstall the `dayjs` package', 'drop the `ky` dependency'],
  lint: ['fix the lint errors', 'eslint is failing, fix the lint errors', 'fix all lint errors and warnings'],
  types: [
    'fix the type errors in src/a.ts',
    'tsc fails, fix the type errors',
    'fix the typescript type errors',
  ],
  commit: [
    'write the commit message',
    'draft a commit message for the staged changes',
    'compose a conventional commit message',
  ],
  enable: ['enable the beta flag in production', 'turn on the beta flag in production'],
  disable: ['disable the beta flag in production', 'turn off the beta flag in production'],
  'add-tests': [
    'add tests for `parseOrder`',
    'write unit tests for `parseOrder`',
    'add unit tests for `saveUser`',
  ],
  logging: ['add logging to `parseOrder`', 'add debug logging around `parseOrder`'],
  rename: ['rename `getUser` to `fetchUser`', 'rename the `a` function to `b` everywhere'],
};

/** The partition as sorted lists of intents, independent of group and input order. */
function partition(intents: readonly string[], groups: readonly number[][]): string[][] {
  return groups
    .map((group) => group.map((i) => intents[i] ?? '').sort())
    .sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1));
}

const expected = (tasks: Record<string, string[]>): string[][] =>
  Object.values(tasks)
    .map((group) => [...group].sort())
    .sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1));

describe('clusterIntents', () => {
  const intents = Object.values(TASKS).flat();

  it('joins paraphrases and keeps different tasks apart', () => {
    expect(partition(intents, clusterIntents(intents))).toEqual(expected(TASKS));
  });

  it('keeps different actions on the same object apart', () => {
    const rename = [
      'rename `useCart` to `useBasket` across the web app',
      'Rename `a` to `b` across the web app',
    ];
    const add = ['Could you add `nanoid` to the web app?', 'add `zod` to the web app'];
    const all = [...rename, ...add];
    expect(partition(all, clusterIntents(all))).toEqual(expected({ rename, add }));
  });

  it('returns every index once, groups ascending and ordered by their first index', () => {
    const groups = clusterIntents(intents);
    expect(groups.flat().sort((a, b) => a - b)).toEqual(intents.map((_, i) => i));
    for (const group of groups) expect(group).toEqual([...group].sort((a, b) => a - b));
    expect(groups.map((g) => g[0])).toEqual(groups.map((g) => g[0]).sort((a, b) => (a ?? 0) - (b ?? 0)));
  });

  it('does not depend on the input order', () => {
    const shuffled = [...intents].reverse();
    shuffled.push(...shuffled.splice(0, 7));
    expect(partition(shuffled, clusterIntents(shuffled))).toEqual(
      partition(intents, clusterIntents(intents)),
    );
  });

  it('groups an intent without features only with the same normal form', () => {
    const filler = ['can you please', 'could you please', 'Can  you please'];
    expect(partition(filler, clusterIntents(filler))).toEqual([
      ['Can  you please', 'can you please'],
      ['could you please'],
    ]);
    expect(clusterIntents([])).toEqual([]);
  });

  it('reads an underspecified request as the most common task it could be, not a rare one', () => {
    const deps = ['add `zod` as a dependency', 'install the `ky` package', 'add the `pino` dependency'];
    const vague = ['add `nanoid` to the app', 'add `dayjs` to the project'];
    const tests = ['add tests for `parseOrder`'];
    const all = [...deps, ...vague, ...tests];
    expect(partition(all, clusterIntents(all))).toEqual(expected({ deps: [...deps, ...vague], tests }));

    const explain = ['explain `parseOrder`', 'explain what `saveUser` does', 'explain `loadCart` to me'];
    const readme = ['describe `parseOrder` in the README'];
    const both = [...explain, ...readme];
    expect(partition(both, clusterIntents(both))).toEqual(expected({ explain, readme }));
  });

  it('does not let a closing sentence shared by many requests join them', () => {
    const requests = Object.values(TASKS).map((group) => group[0] ?? '');
    const closings = ['The release is tomorrow.', 'Try to keep the diff small.'];
    const noisy = requests.flatMap((request) => closings.map((closing) => `${request}. ${closing}`));
    const all = [...noisy, ...noisy.map((text) => text.replace(/\. (\w)/, ' $1'))];
    const groups = partition(all, clusterIntents(all));
    expect(groups).toHaveLength(requests.length);
    for (const group of groups) {
      const task = requests.find((request) => group[0]?.startsWith(request.slice(0, 12)));
      expect(group.every((text) => task !== undefined && text.startsWith(task.slice(0, 12)))).toBe(true);
    }
  });

  it('corrects typos of far more common words', () => {
    const intents = [
      ...Array.from({ length: 12 }, (_, i) => `fix the build errors in module ${i}`),
      'fix the bild errors',
    ];
    expect(clusterIntents(intents)).toHaveLength(1);
  });

  it('scales to thousands of intents', () => {
    const verbs = ['add', 'remove', 'fix', 'rename', 'explain', 'update'];
    const objects = [
      'tests',
      'logging',
      'the readme',
      'the changelog',
      'dark mode',
      'the login page',
      'caching',
    ];
    const many = Array.from(
      { length: 6000 },
      (_, i) =>
        `${verbs[i % 6] ?? ''} ${objects[i % 7] ?? ''} for \`fn${i}\` please${i % 3 === 0 ? ' asap' : ''}`,
    );
    const start = performance.now();
    const groups = clusterIntents(many);
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(groups.flat()).toHaveLength(many.length);
    expect(groups.length).toBeLessThanOrEqual(42);
  });
});
