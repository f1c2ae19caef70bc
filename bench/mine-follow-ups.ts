/** Follow-ups of the mining benchmark's sessions that are no correction (some look like one), and thanks. */
import type { Reply } from './mine-work.js';
import { WORDS, rel, unquote, type WorkState, testOf, fileOf } from './mine-work.js';
/** A follow-up that is not a correction with a check (some look like one), and what the agent does. */
export interface FollowUp {
  text: string;
  /** `slots`: the follow-up's own details ({file}, {fn}, {error}). */
  work: (r: Reply, slots: Readonly<Record<string, string>>) => void;
}

/** The files the replies so far wrote or edited (relative), latest last. */
function touchedFiles(st: WorkState): string[] {
  return [
    ...new Set(st.done.filter((a) => a.kind === 'write' || a.kind === 'edit').map((a) => rel(a.target))),
  ];
}

/** The source file the replies worked on last (not a lockfile, manifest or doc). */
function lastTouched(r: Reply): string {
  return (
    touchedFiles(r.st)
      .filter((f) => /\.(tsx?|js)$/.test(f) && !f.startsWith('dist/'))
      .at(-1) ?? fileOf(r)
  );
}

export const FOLLOW_UPS: readonly FollowUp[] = [
  {
    text: 'now do the same for {file}',
    work: (r, slots) => {
      const last = [...r.st.done].reverse().find((a) => a.kind === 'edit' || a.kind === 'write');
      r.read(unquote(slots.file ?? fileOf(r))).edit(unquote(slots.file ?? fileOf(r)), last?.added ?? '');
    },
  },
  {
    text: 'also add a test for it',
    work: (r) => {
      const f = testOf(lastTouched(r));
      r.write(
        f,
        `${r.testImports()}\n\ndescribe('${r.rng.pick(WORDS.noun)}', () => {\n  it('works', () => {});\n});\n`,
      ).test(f);
    },
  },
  {
    text: 'commit it',
    work: (r) => {
      r.run('git add -A').run(
        `git commit -m "${r.rng.pick(['Update', 'Change', 'Tweak'])} ${r.rng.pick(WORDS.noun)} handling"`,
      );
    },
  },
  {
    text: 'ok now run the tests',
    work: (r) => {
      r.test();
    },
  },
  {
    text: 'can you also update the types?',
    work: (r) => {
      r.read('src/types.ts').edit('src/types.ts', `  ${r.rng.pick(WORDS.noun)}Id?: string;`);
    },
  },
  {
    text: 'looks good, what about the error handling?',
    work: (r) => {
      r.edit(lastTouched(r), "  if (!input) throw new Error('missing input');");
    },
  },
  {
    text: 'still failing: {error}',
    work: (r) => {
      r.test().read(lastTouched(r)).edit(lastTouched(r), '  if (!row) return null;');
    },
  },
  {
    text: 'it compiles but {fn} returns undefined now',
    work: (r) => {
      r.read(lastTouched(r)).edit(lastTouched(r), '  return result;', '  result;');
    },
  },
  {
    text: 'great, now update the docs',
    work: (r) => {
      r.edit(r.rng.pick(['README.md', 'docs/usage.md']), `See \`${r.rng.pick(WORDS.noun)}\` for details.`);
    },
  },
  {
    text: 'and the CHANGELOG too',
    work: (r) => {
      r.edit('CHANGELOG.md', `- ${r.rng.pick(WORDS.noun)} handling`);
    },
  },
  {
    text: "don't worry about the docs for now",
    work: (r) => {
      r.say('Ok, leaving the docs.');
    },
  },
  {
    text: 'I have never seen this error before',
    work: (r) => {
      r.read(lastTouched(r)).say('It comes from the retry wrapper.');
    },
  },
  {
    text: "that's not right, try again",
    work: (r) => {
      r.edit(
        lastTouched(r),
        `  return ${r.rng.pick(['items.filter(Boolean)', 'rows[0] ?? null', 'values.slice(0, limit)'])};`,
        '  return items;',
      );
    },
  },
  {
    text: 'no, not like that',
    work: (r) => {
      r.edit(
        lastTouched(r),
        `  const value = ${r.rng.pick(['input.value', 'defaults.value', 'options.value ?? 0'])};`,
        '  const value = input;',
      );
    },
  },
  {
    text: "it's not working",
    work: (r) => {
      r.verify(1).read(lastTouched(r));
    },
  },
  {
    text: 'use the same approach as before',
    work: (r) => {
      r.edit(lastTouched(r), '  return withRetry(() => send(input));');
    },
  },
  {
    text: 'always the same error',
    work: (r) => {
      r.test().edit(lastTouched(r), '  await ready;');
    },
  },
  {
    text: 'why do you always do that?',
    work: (r) => {
      r.say('Sorry, I read the old config first.');
    },
  },
  {
    text: "don't forget the tests",
    work: (r) => {
      r.test();
    },
  },
  {
    text: 'never mind, it works',
    work: (r) => {
      r.say('Great.');
    },
  },
  {
    text: "don't bother with the changelog",
    work: (r) => {
      r.say('Ok.');
    },
  },
  {
    text: 'no, I meant {file}, not the other one',
    work: (r, slots) => {
      const f = lastTouched(r);
      const last = [...r.st.done].reverse().find((a) => a.kind === 'edit' || a.kind === 'write');
      r.run(`git checkout -- ${f}`).edit(
        unquote(slots.file ?? fileOf(r)),
        last?.added ?? '  return next(input);',
      );
    },
  },
  {
    text: 'keep it in one file please',
    work: (r) => {
      const files = touchedFiles(r.st);
      if (files.length > 1) r.run(`git rm -f ${files.at(-1) ?? ''}`);
      r.edit(files[0] ?? fileOf(r), '// merged\n');
    },
  },
  {
    text: "don't change anything else",
    work: (r) => {
      const files = touchedFiles(r.st);
      if (files.length > 1) r.run(`git checkout -- ${files.at(-1) ?? ''}`);
      r.say('Only the one change remains.');
    },
  },
  {
    text: 'always run the tests before you say it is done',
    work: (r) => {
      r.test();
    },
  },
];

export const THANKS = [
  'thanks, works now',
  'great, that fixed it',
  'perfect, thanks',
  'lgtm',
  'works, thank you!',
  'nice, ship it',
];
