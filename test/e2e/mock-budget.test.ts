// The mock is free: budget flags on it get a warning instead of being ignored without a word.
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';

describe('budget flags on the mock backend', () => {
  it('say that the mock is free and the limits do not apply', async () => {
    const box = sandbox();
    const r = await runCli(box, [
      'dry-run',
      '--demo',
      '--backend',
      'mock',
      '--max-calls',
      '0',
      '--max-cost-usd',
      '1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      '[sleep] warning: the mock backend is free and offline: --max-calls, --max-cost-usd do not apply to it',
    );
  });

  it('stay quiet when no budget flag was typed', async () => {
    const box = sandbox();
    const r = await runCli(box, ['dry-run', '--demo', '--backend', 'mock']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('do not apply');
  });
});
