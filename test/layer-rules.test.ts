/** The layer rules `npm run lint` checks (.dependency-cruiser.cjs) catch a forbidden import. */
import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const rules = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as {
  forbidden: IForbiddenRuleType[];
};

describe('layer rules', () => {
  it('report a trainer module importing the store, and nothing else in the fixture', async () => {
    const result = await cruise(['src'], {
      baseDir: path.join(root, 'test/fixtures/layers'),
      ruleSet: { forbidden: rules.forbidden },
      validate: true,
    });
    const output = result.output as ICruiseResult;
    const violations = output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
    expect(violations).toEqual([{ rule: 'trainer', from: 'src/trainer/gate.mjs', to: 'src/store/db.mjs' }]);
  });
});
