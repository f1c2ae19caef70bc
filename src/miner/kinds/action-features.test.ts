import { describe, expect, it } from 'vitest';
import { read, run, write } from '../test-helpers.js';
import { addActionFeatures, newSink, relativePath, splitFileName } from './action-features.js';

const featuresOf = (actions: Parameters<typeof addActionFeatures>[1], request = '') => {
  const sink = newSink();
  addActionFeatures(sink, actions, 1, '/work/app', new Set(request.toLowerCase().split(/\W+/)));
  return sink;
};

describe('addActionFeatures', () => {
  it('gives a command its program and subcommands; arguments are details', () => {
    const sink = featuresOf([run('uv run pytest tests/test_tax.py -q')]);
    expect([...sink.features.keys()]).toEqual(['c:uv', 'c:uv run', 'c:uv run pytest', 'w:run', 'w:pytest']);
    expect([...sink.details]).toEqual(['test_tax.py']);
  });

  it('stops the subcommands at a word the request names: that is the object of the request', () => {
    const sink = featuresOf([run('pnpm add msw --filter @shop/web')], 'add msw to the web package');
    expect([...sink.features.keys()]).toEqual(['c:pnpm', 'c:pnpm add', 'w:add']);
    expect(sink.details.has('msw')).toBe(true);
    // The first subcommand always counts ("make test" for "fix the failing test").
    expect([...featuresOf([run('make test')], 'fix the failing test').features.keys()]).toContain(
      'c:make test',
    );
  });

  it('gives a file its operation, extension, folders, name and stem parts, relative to the session folder', () => {
    const sink = featuresOf([write('/work/app/migrations/0007_add_due_date.up.sql', 'ALTER TABLE')]);
    expect([...sink.features.keys()]).toEqual([
      'f:write',
      'f:write:x:.up.sql',
      'f:write:n:0007_add_due_date.up.sql',
      'f:write:d:migrations',
      'f:write:p:add',
      'f:write:p:due',
      'f:write:p:date',
    ]);
    expect(sink.details.has('0007_add_due_date')).toBe(true);
  });

  it('keeps the largest weight a feature was seen with', () => {
    const sink = newSink();
    addActionFeatures(sink, [read('/work/app/package.json')], 0.5, '/work/app', new Set());
    addActionFeatures(sink, [read('/work/app/package.json')], 1, '/work/app', new Set());
    addActionFeatures(sink, [read('/work/app/package.json')], 0.5, '/work/app', new Set());
    expect(sink.features.get('f:read:n:package.json')).toBe(1);
  });
});

describe('paths', () => {
  it('makes paths relative to the session folder, else keeps their last folders', () => {
    expect(relativePath('/work/app/src/a.ts', '/work/app')).toBe('src/a.ts');
    expect(relativePath('/home/u/other/deep/src/a.ts', '/work/app')).toBe('deep/src/a.ts');
    expect(relativePath('C:\\repo\\src\\a.ts', 'C:\\repo')).toBe('src/a.ts');
    expect(relativePath('../lib/./x.ts', '/work/app')).toBe('lib/x.ts');
  });

  it('splits a file name at its first dot', () => {
    expect(splitFileName('money.test.ts')).toEqual({ stem: 'money', ext: '.test.ts' });
    expect(splitFileName('.env')).toEqual({ stem: '.env', ext: '' });
    expect(splitFileName('Makefile')).toEqual({ stem: 'Makefile', ext: '' });
  });
});
