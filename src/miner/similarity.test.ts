import { describe, expect, it } from 'vitest';
import {
  applySpecificity,
  corpusBoilerplate,
  corpusNames,
  corpusSpecificity,
  correctTypos,
  featureSet,
  featuresOf,
  intentFeatures,
  intentWords,
  sameTask,
  sentenceWords,
  similarity,
  stem,
  stripBoilerplate,
  typoCorrections,
  withinOneEdit,
} from './similarity.js';
import type { Feature } from './similarity.js';

const tokens = (features: readonly Feature[]): string[] => features.map((f) => `${f.token}/${f.role}`);
const sim = (a: string, b: string): number =>
  similarity(featureSet(intentFeatures(a)), featureSet(intentFeatures(b)));

describe('stem', () => {
  it('gives the forms of a word one stem', () => {
    expect(new Set(['update', 'updates', 'updating', 'updated'].map(stem))).toEqual(new Set(['updat']));
    expect(new Set(['test', 'tests', 'testing', 'tested'].map(stem))).toEqual(new Set(['test']));
    expect(new Set(['add', 'adds', 'adding', 'added'].map(stem))).toEqual(new Set(['add']));
    expect(new Set(['run', 'runs', 'running'].map(stem))).toEqual(new Set(['run']));
    expect(stem('dependencies')).toBe(stem('dependency'));
  });

  it('leaves short words and -ss / -us endings alone', () => {
    expect(stem('css')).toBe('css');
    expect(stem('class')).toBe('class');
    expect(stem('status')).toBe('status');
  });
});

describe('intentFeatures', () => {
  it('takes the first canonical verb as the action and maps synonyms', () => {
    expect(tokens(intentFeatures('Please install `zod` and wire it up'))).toEqual([
      'add/action',
      'dependency/content',
      '<sym>/weak',
      'wir/content',
    ]);
    expect(tokens(intentFeatures('bump the lodash package'))).toEqual([
      'update/action',
      'lodash/content',
      'dependency/content',
    ]);
  });

  it('reads phrasal verbs before the words are split', () => {
    expect(intentFeatures('get rid of the old logger')[0]?.token).toBe('remove');
    expect(intentFeatures('turn on dark mode')[0]?.token).toBe('enable');
    expect(intentFeatures('turn off dark mode')[0]?.token).toBe('disable');
    expect(intentFeatures('walk me through the router')[0]?.token).toBe('explain');
  });

  it('drops filler, keeps placeholders weak, weighs generic words less', () => {
    const features = intentFeatures('hey, could you quickly add `x` to src/app.ts in the app 42 times?');
    expect(features).toEqual([
      { token: 'add', weight: 3, role: 'action' },
      { token: '<sym>', weight: 1, role: 'weak' },
      { token: '<path>', weight: 1, role: 'weak' },
      { token: 'app', weight: 1, role: 'content' },
      { token: '<num>', weight: 1, role: 'weak' },
      { token: 'tim', weight: 2, role: 'content' },
    ]);
  });

  it('is empty for an intent made of filler', () => {
    expect(intentFeatures('can you please do it now?')).toEqual([]);
  });
});

describe('similarity', () => {
  it('joins paraphrases of one task', () => {
    expect(sameTask('Add `zod` as a dependency', 'please install the `dayjs` package')).toBe(true);
    expect(sameTask('fix the lint errors', 'eslint is failing, fix all lint errors')).toBe(true);
    expect(sameTask('write the commit message', 'draft a commit message for the staged changes')).toBe(true);
    expect(sameTask('the tests are failing, fix them', 'tests broke after the merge, fix them')).toBe(true);
    expect(sameTask('rename `a` to `b`', 'rename the `a` function to `b` everywhere')).toBe(true);
  });

  it('keeps opposite actions apart, however alike the rest', () => {
    expect(sim('add `zod` to the app', 'remove `zod` from the app')).toBe(0);
    expect(sim('enable the beta flag in production', 'disable the beta flag in production')).toBe(0);
    expect(sim('turn on the beta flag in production', 'turn off the beta flag in production')).toBe(0);
    expect(sim('we need more debug logging in `x`', 'remove the debug logging from `x`')).toBe(0);
    expect(sim('add a migration for the email column', 'write a migration that drops the email column')).toBe(
      0,
    );
  });

  it('needs a shared content word, not just the action or a placeholder', () => {
    expect(sim('add tests for `parseOrder`', 'add logging to `parseOrder`')).toBe(0);
    expect(sim('fix `a`', 'fix the lint errors in `a`')).toBe(0);
  });

  it('needs enough of the content in common', () => {
    expect(sim('fix the lint errors', 'fix the type errors')).toBe(0);
    expect(sim('the build fails, fix the build errors', 'tsc fails, fix the type errors')).toBe(0);
  });

  it('is symmetric and 1 for the same intent', () => {
    const a = 'update the README with the new usage';
    const b = 'the README is out of date, update it';
    expect(sim(a, b)).toBe(sim(b, a));
    expect(sim(a, a)).toBe(1);
  });
});

describe('typoCorrections', () => {
  it('reads a rare word one edit from a far more common one as that word', () => {
    const lists = [
      ...Array.from({ length: 30 }, () => ['build', 'fail']),
      ['bild', 'fail'],
      ['delet', 'tabl'],
    ];
    const typos = typoCorrections(lists);
    expect(typos.get('bild')).toBe('build');
    // "delte" → stem "delet" is the canonical "delete" itself; "delt" (from "delt") is one edit away.
    expect(typoCorrections([['delt', 'tabl']]).get('delt')).toBeUndefined();
    expect(correctTypos(['bild', 'fail'], typos)).toEqual(['build', 'fail']);
  });

  it('corrects towards canonical words only from five letters, and drops corrected filler', () => {
    const words = intentWords('remvoe the mail qiuck');
    expect(words).toEqual(['remvo', 'mail', 'qiuck']);
    const typos = typoCorrections([words]);
    expect(typos.get('remvo')).toBe(stem('remove'));
    expect(typos.has('mail')).toBe(false);
    expect(correctTypos(words, typos)).toEqual(['remov', 'mail']);
  });

  it('leaves a word alone when two corrections are about as likely', () => {
    const lists = [
      ...Array.from({ length: 20 }, () => ['log']),
      ...Array.from({ length: 20 }, () => ['login']),
      ['logn'],
    ];
    expect(typoCorrections(lists).has('logn')).toBe(false);
  });

  it('withinOneEdit counts inserts, deletes, substitutions and adjacent swaps', () => {
    expect(withinOneEdit('test', 'tset')).toBe(true);
    expect(withinOneEdit('test', 'tst')).toBe(true);
    expect(withinOneEdit('test', 'tests')).toBe(true);
    expect(withinOneEdit('test', 'text')).toBe(true);
    expect(withinOneEdit('test', 'tent!')).toBe(false);
    expect(withinOneEdit('test', 'ttes')).toBe(false);
  });
});

describe('corpus knowledge', () => {
  it('makes a name users backtick a placeholder where it is written bare', () => {
    const intents = ['add `zod` to the app', 'remove `zod`', 'bump `zod` to 3.0', 'add zod to the app'];
    const names = corpusNames(intents);
    expect(names.quoted.has('zod')).toBe(true);
    expect(sentenceWords('add zod to the app', names)).toEqual([['add', '<sym>', 'app']]);
  });

  it('reads a file name that recurs in many intents as its words', () => {
    const intents = Array.from({ length: 12 }, (_, i) => `add VAR_${i} to .env.example`);
    const names = corpusNames(intents);
    expect(names.paths.has('.env.example')).toBe(true);
    expect(sentenceWords('add PORT to .env.example', names)).toEqual([['add', 'port', 'env', 'exampl']]);
    expect(intentWords('add PORT to .env.example')).toEqual(['add', 'port', '<path>']);
  });

  it('finds closing sentences appended to all kinds of requests and strips them, punctuated or not', () => {
    const requests = [
      'fix the lint errors',
      'add `x` to the app',
      'write the commit message',
      'rename `a` to `b`',
    ];
    const intents = Array.from(
      { length: 24 },
      (_, i) => `${requests[i % 4] ?? ''} for team${i}. The release is tomorrow.`,
    );
    const boilerplate = corpusBoilerplate(intents.map((intent) => sentenceWords(intent)));
    expect([...boilerplate]).toEqual(['releas tomorrow']);
    const words = sentenceWords('fix the lint errors the release is tomorrow').flat();
    expect(stripBoilerplate(words, boilerplate)).toEqual(['fix', 'lint', 'error']);
    expect(stripBoilerplate(['releas', 'tomorrow'], boilerplate)).toEqual(['releas', 'tomorrow']);
  });

  it('finds words that go with every action alike and drops them', () => {
    const actions = ['add', 'fix', 'remove', 'rename', 'explain'];
    const lists = Array.from({ length: 100 }, (_, i) =>
      intentFeatures(`${actions[i % 5] ?? ''} the task${i % 5}${i % 2 === 0 ? ' alright' : ''}`),
    );
    const specificity = corpusSpecificity(lists);
    expect(specificity.get('alright')).toBe('filler');
    expect(specificity.has('task0')).toBe(false);
    expect(tokens(applySpecificity(featuresOf(['add', 'task0', 'alright']), specificity))).toEqual([
      'add/action',
      'task0/content',
    ]);
  });
});
