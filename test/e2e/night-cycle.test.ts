import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERSONAS, runCli, sandbox } from './cli-helpers.js';

const START = '<!-- SKILLOPT-SLEEP:LEARNED START -->';

describe('the bundled demo', () => {
  it('dry-run shows the validation score rising and the learned rules', async () => {
    const box = sandbox();
    const r = await runCli(box, ['dry-run', '--backend', 'mock', '--demo', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.accepted).toBe(true);
    expect(Number(out.candidate)).toBeGreaterThan(Number(out.baseline));
    expect((out.learned_rules as string[]).length).toBeGreaterThanOrEqual(2);
    const human = await runCli(box, ['dry-run', '--backend', 'mock', '--demo']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/validation \d\.\d{3} -> \d\.\d{3} => accept_new_best/);
    expect(human.stdout).toContain('pnpm');
  });

  it('run --demo stages a proposal that adopt --demo applies, once', async () => {
    const box = sandbox();
    const run = await runCli(box, ['run', '--demo', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const out = run.json();
    expect(out.accepted).toBe(true);
    expect(String(out.staging_dir)).toContain(path.join(box.stateHome, 'demo'));
    // Every check in the report names the session and the sentence it came from.
    const report = readFileSync(path.join(String(out.staging_dir), 'report.md'), 'utf8');
    expect(report).toContain('## Mined tasks and the corrections behind their rules');
    expect(report).toMatch(/pnpm.*instead of.*npm.*\(claude:/i);
    const adopt = await runCli(box, ['adopt', '--demo', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    const paths = adopt.json().updated_paths as string[];
    expect(readFileSync(paths[0] ?? '', 'utf8')).toContain('pnpm');
  });
});

describe('run → status → adopt on a project', () => {
  it('puts the learned rules into the live skill and leaves hand-written text byte-identical', async () => {
    const box = sandbox();
    const skill = path.join(box.project, '.claude', 'skills', 'skillopt-sleep-learned', 'SKILL.md');
    mkdirSync(path.dirname(skill), { recursive: true });
    const handWritten =
      '---\nname: skillopt-sleep-learned\ndescription: mine\n---\n\n# Mine\n\nKeep  this\ttext   as is.\n\n\n';
    writeFileSync(skill, handWritten);
    const tasks = path.join(PERSONAS, 'researcher.tasks.json');

    const run = await runCli(box, ['run', '--json', '--tasks-file', tasks]);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    expect(night.accepted).toBe(true);
    expect(String(night.staging_dir)).toContain(path.join(box.project, '.skillopt-sleep', 'proposals'));
    // Nothing live changed before adoption.
    expect(readFileSync(skill, 'utf8')).toBe(handWritten);

    const status = await runCli(box, ['status', '--json']);
    expect(status.code).toBe(0);
    const st = status.json();
    expect(st.n_nights).toBe(1);
    expect((st.latest_proposal as { status: string }).status).toBe('staged');
    // Night rows are JSON, not database rows: booleans and nulls (docs/status-json.md).
    const [row] = st.nights as Array<Record<string, unknown>>;
    expect(row).toMatchObject({
      status: 'completed',
      accepted: true,
      gate_action: 'accept_new_best',
      stopped: null,
      error: null,
      proposal_id: (st.latest_proposal as { id: string }).id,
    });

    const adopt = await runCli(box, ['adopt', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.json()).toMatchObject({ ok: true, updated_paths: [skill] });
    const after = readFileSync(skill, 'utf8');
    expect(after.startsWith(handWritten)).toBe(true);
    expect(after.slice(handWritten.length)).toContain(START);
    const learned = night.learned_rules as string[];
    expect(learned.length).toBeGreaterThanOrEqual(2);
    for (const rule of learned) expect(after).toContain(`- ${rule}`);

    const again = await runCli(box, ['adopt', '--json']);
    expect(again.code).toBe(2);
    expect(again.json()).toMatchObject({ ok: false, error: 'already_adopted' });

    const statusAfter = await runCli(box, ['status']);
    expect(statusAfter.stdout).toContain('adopted');

    // The next night starts from the adopted skill: nothing left to learn.
    const second = await runCli(box, ['run', '--json', '--tasks-file', tasks]);
    expect(second.json()).toMatchObject({ accepted: false, baseline: 1 });
  });

  it('creates a missing live skill with front matter', async () => {
    const box = sandbox();
    const run = await runCli(box, [
      'run',
      '--json',
      '--tasks-file',
      path.join(PERSONAS, 'programmer.tasks.json'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const learned = run.json().learned_rules as string[];
    expect(learned).toHaveLength(1);
    const adopt = await runCli(box, ['adopt', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    const text = readFileSync((adopt.json().updated_paths as string[])[0] ?? '', 'utf8');
    expect(text).toMatch(/^---\nname: skillopt-sleep-learned\ndescription: .+\n---\n/);
    expect(text).toContain(`- ${learned[0]}`);
  });
});

describe('bad input', () => {
  it('a broken config file gives exit 2 and names the key', async () => {
    const box = sandbox();
    mkdirSync(path.join(box.project, '.skillopt-sleep'), { recursive: true });
    writeFileSync(
      path.join(box.project, '.skillopt-sleep', 'config.json'),
      JSON.stringify({ edit_budget: -3 }),
    );
    const r = await runCli(box, ['dry-run', '--demo']);
    expect(r.code).toBe(0); // the demo has its own project; this project's config is not read
    const bad = await runCli(box, ['dry-run']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('config.json');
    expect(bad.stderr).toContain('edit_budget');
  });

  it('invalid JSON in the user config and an unknown backend are exit 2', async () => {
    const box = sandbox();
    mkdirSync(box.stateHome, { recursive: true });
    writeFileSync(path.join(box.stateHome, 'config.json'), '{"seed": 4');
    expect((await runCli(box, ['status'])).code).toBe(0); // status reads no config
    const r = await runCli(box, ['dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.json: invalid JSON/);
    writeFileSync(path.join(box.stateHome, 'config.json'), '{"backend": "gpt-magic"}');
    const b = await runCli(box, ['run']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('"backend"');
  });

  it('unknown flags, bad numbers and missing projects are usage errors', async () => {
    const box = sandbox();
    expect((await runCli(box, ['run', '--no-such-flag'])).code).toBe(2);
    expect((await runCli(box, ['run', '--edit-budget', 'many'])).code).toBe(2);
    expect((await runCli(box, ['run', '--backend', 'nope'])).code).toBe(2);
    const missing = await runCli(box, ['run', '--project', path.join(box.root, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
  });

  it('adopt with nothing staged is refused with exit 2', async () => {
    const box = sandbox();
    const r = await runCli(box, ['adopt', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toMatchObject({ ok: false, error: 'no_proposal' });
  });

  it('a malformed tasks file is exit 2 with the reason', async () => {
    const box = sandbox();
    const file = path.join(box.root, 'tasks.json');
    writeFileSync(file, '{"format": "skillopt_sleep.tasks.v1", "tasks": [{"id": "a"}]}');
    const r = await runCli(box, ['dry-run', '--tasks-file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/intent/);
  });
});

describe('correction patterns in config', () => {
  it('a pattern whose regex does not compile is exit 2 naming the key', async () => {
    const box = sandbox();
    mkdirSync(path.join(box.project, '.skillopt-sleep'), { recursive: true });
    writeFileSync(
      path.join(box.project, '.skillopt-sleep', 'config.json'),
      JSON.stringify({
        correction_patterns: [{ name: 'bad', regex: '(unclosed', checks: [{ op: 'contains', arg: 'x' }] }],
      }),
    );
    const r = await runCli(box, ['dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('correction_patterns');
  });
});
