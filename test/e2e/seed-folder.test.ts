/**
 * `run --tasks-file SEED_DIR`: a benchmark seed folder in the gbrain-evals `skillopt-v1` shape (our own
 * seeds, test/fixtures/seeds). The night starts from the seed's skill, trains on its training tasks,
 * scores its held-out tasks before and after and shows them to nothing else; adoption writes the skill
 * with its frontmatter intact; a bad folder is one line, exit 2, and nothing written.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, type Sandbox } from './cli-helpers.js';

const SEEDS = path.resolve(import.meta.dirname, '../fixtures/seeds');
const SKILL = (box: Sandbox): string =>
  path.join(box.project, '.claude', 'skills', 'skillopt-sleep-learned', 'SKILL.md');

/** A copy of a fixture seed in the sandbox (a test may mark or break it). */
function seedCopy(box: Sandbox, name: string): string {
  const dir = path.join(box.root, 'seeds', name);
  cpSync(path.join(SEEDS, name), dir, { recursive: true });
  return dir;
}

/** Texts only the held-out judges of seed-release-notes hold (their training judges are worded otherwise). */
const HELD_OUT_JUDGE = ['section_present', 'upgrade\\s', 'rn-h1'];

describe('run --tasks-file SEED_DIR (mock)', () => {
  it('starts from the seed skill, scores the held-out test before and after, and adopts it intact', async () => {
    const box = sandbox();
    const seed = seedCopy(box, 'seed-release-notes');
    const seedSkill = readFileSync(path.join(seed, 'SKILL.md'), 'utf8');
    const r = await runCli(box, ['run', '--json', '--backend', 'mock', '--tasks-file', seed]);
    expect(r.code, r.stderr).toBe(0);
    const night = r.json();
    expect(night).toMatchObject({
      accepted: true,
      gate_action: 'accept_new_best',
      tasks_file: seed,
      n_tasks: 17,
      n_test: 5,
      test: { before: 0, after: 1 },
      test_score: 1,
    });
    expect((night.notes as string[]).join('\n')).toContain('seed seed-release-notes: 12 training tasks');
    // The night's skill is the seed's with a learned block appended: its frontmatter is untouched.
    const staged = readdirSync(String(night.staging_dir), { recursive: true, encoding: 'utf8' }).find((f) =>
      f.endsWith('SKILL.md'),
    );
    const proposed = readFileSync(path.join(String(night.staging_dir), staged ?? ''), 'utf8');
    expect(proposed.startsWith(seedSkill)).toBe(true);
    expect(night.learned_rules).toEqual(
      expect.arrayContaining([
        expect.stringContaining('## Breaking Changes'),
        expect.stringContaining('Upgrade:'),
      ]),
    );

    const adopt = await runCli(box, ['adopt', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    const live = readFileSync(SKILL(box), 'utf8');
    expect(live).toBe(proposed);
    expect(live.startsWith('---\nname: release-notes-example\nversion: 0.2.0\n')).toBe(true);

    // The next night on the same seed goes on from the adopted skill: nothing is left to learn.
    const again = await runCli(box, ['run', '--json', '--backend', 'mock', '--tasks-file', seed]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ accepted: false, test: { before: 1, after: 1 } });
  });

  it("prints the held-out test, and nothing it prints names a held-out task's judge", async () => {
    const box = sandbox();
    const seed = seedCopy(box, 'seed-release-notes');
    // A shape-only judge on a held-out task would be described by a warning if any were printed.
    writeFileSync(
      path.join(seed, 'held-out.jsonl'),
      `${JSON.stringify({ task_id: 'rn-h1', task: 'Write the release notes for a release of a CLI.', judge: { kind: 'rule', checks: [{ op: 'section_present', arg: 'Breaking Changes' }] } })}\n`,
    );
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--progress', '--tasks-file', seed]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '[sleep] held-out test (never seen by reflection or the gate): 0.000 -> 1.000',
    );
    expect(r.stdout).toMatch(/\[sleep\] validation \d\.\d{3} -> 1\.000 => accept_new_best/);
    for (const text of HELD_OUT_JUDGE) expect(`${r.stdout}\n${r.stderr}`).not.toContain(text);
  });

  it('learns to call the declared tool from tool_called judges (the mock states its calls)', async () => {
    const box = sandbox();
    const r = await runCli(box, [
      'dry-run',
      '--json',
      '--backend',
      'mock',
      '--tasks-file',
      seedCopy(box, 'seed-lookup-first'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ accepted: true, test: { before: 0, after: 1 } });
    expect(r.json().learned_rules).toEqual([expect.stringContaining('Always call the "search" tool.')]);
  });
});

describe('a seed folder run refuses', () => {
  const refusedOneLine = (r: { code: number; stdout: string; stderr: string }, message: string): void => {
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(message);
  };

  it('a bad seed folder: one line, exit 2, nothing written into the project or the store', async () => {
    const box = sandbox();
    const seed = seedCopy(box, 'seed-rambling');
    writeFileSync(
      path.join(seed, 'held-out.jsonl'),
      '{"task_id": "dr-h1", "task": "x", "judge": {"kind": "llm"}}\n',
    );
    const r = await runCli(box, ['run', '--backend', 'mock', '--tasks-file', seed]);
    refusedOneLine(
      r,
      `seed folder ${seed}: held-out.jsonl:1 (task "dr-h1"): field "judge.kind" must be "rule"`,
    );
    expect(readdirSync(box.project)).toEqual([]);
    const status = await runCli(box, ['status', '--json']);
    expect(status.json().nights ?? []).toEqual([]);
  });

  it('a target skill that is another skill: the proposal would replace it', async () => {
    const box = sandbox();
    mkdirSync(path.dirname(SKILL(box)), { recursive: true });
    writeFileSync(SKILL(box), '# My own skill\n');
    const r = await runCli(box, ['run', '--backend', 'mock', '--tasks-file', seedCopy(box, 'seed-rambling')]);
    refusedOneLine(r, "exists and is not the seed's SKILL.md");
    expect(readFileSync(SKILL(box), 'utf8')).toBe('# My own skill\n');
    expect(existsSync(path.join(box.project, '.skillopt-sleep', 'proposals'))).toBe(false);
  });

  it('a real backend, until the folder is marked reviewed', async () => {
    const box = sandbox();
    const seed = seedCopy(box, 'seed-rambling');
    const args = ['run', '--backend', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--tasks-file', seed];
    const r = await runCli(box, args, { OPENAI_API_KEY: 'test-key-not-secret' });
    refusedOneLine(r, 'it is not marked reviewed. Inspect its tasks, then add an empty REVIEWED file to it');
  });
});
