/** `train` stops once the skill stops changing (`trainer.patience`) instead of running every epoch. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli as runCli, sandbox } from './cli-helpers.js';

describe('train --set trainer.epochs=<many> (built CLI, mock backend)', () => {
  it('stops early and says so', () => {
    const box = sandbox();
    const args = ['train', '--demo', '--backend', 'mock', '--set', 'trainer.epochs=40'];
    const human = runCli(box, [...args, '--out', 'human']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      /stopped early after epoch \d+: the skill did not change for 2 epochs in a row \(trainer\.patience\)/,
    );
    const json = runCli(box, [...args, '--out', 'json', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const summary = json.json() as { epochs: number; steps: number; early_stop: { after_epoch: number } };
    expect(summary.epochs).toBeLessThan(40);
    expect(summary.early_stop.after_epoch).toBe(summary.epochs);
    const history = readFileSync(path.join(box.project, 'json', 'history.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(history.length).toBeLessThan(20);
  });
});
