import { describe, expect, it } from 'vitest';
import { patternReason, readsAsPattern } from './plain-words.js';

describe('plain words', () => {
  it('reads a regular expression in a rule as a pattern, whatever words surround it', () => {
    for (const line of [
      'Always match `migrations/\\d{14}_`.',
      'Never match `(?i)^(?![\\s\\S]*TODO)`.',
      'Commit subjects follow ^(feat|fix|chore): .+',
      'Name files like [a-z0-9]+_test.py',
      'La ligne doit correspondre à `^[^A-Z]*$`.',
      '提交信息必须匹配 `^\\w+: `',
      'Use x{3} for the header',
      'Answer with .* then stop',
    ])
      expect(readsAsPattern(line), line).toBe(true);
  });

  it('reads our check syntax as a check', () => {
    for (const line of ['not_runs "npm"', 'regex=^feat', '{"op": "runs", "arg": "pnpm"}', 'max_chars: 1200'])
      expect(patternReason(line), line).toBe('it is written as a check, not a sentence');
  });

  it('leaves sentences, paths, globs, commands and inline code alone, in any language', () => {
    for (const line of [
      'This repo uses pnpm, not npm: run `pnpm add <pkg>`.',
      'Never edit files under `src/**/*.gen.ts`; they are generated (run `make gen`).',
      'Keep the answer under 1,200 characters.',
      'When the task is "commit message": our convention is imperative subjects, e.g. "Add retry to client".',
      "N'utilisez jamais `npm publish` ; lancez scripts/release.sh.",
      '请用 pnpm 安装依赖，不要用 npm。',
      'Run tests with `vitest run --reporter=dot` before committing (not watch mode).',
      'Windows paths look like C:\\data\\workspace here.',
      'Prices are in $ and € (both fine).',
      'Use **bold** for warnings.',
      'Write the runs and edits you made in the summary.',
      'When the task mentions "add": Use "pnpm" instead of "npm".',
      'The build contains "dist" and runs "make".',
    ])
      expect(patternReason(line), line).toBeNull();
  });
});
