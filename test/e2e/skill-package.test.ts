/**
 * A user's own skill package trained whole (`run --skill`): a hand-written SKILL.md with front matter,
 * a reference and a script. The mock night deletes one bullet, replaces one (in the reference) and adds
 * one; the front matter, the fixed text and the script stay byte for byte, and the proposal's diff
 * holds both changed files. Twenty nights of the same lessons keep the skill's size flat.
 */
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { frontmatterProblems } from '../../src/skill-package/frontmatter.js';
import { skillBodyTokens } from '../../src/skill-package/text-editor.js';
import { openStore } from '../../src/store/db.js';
import { loadProposalView } from '../../src/ui/data.js';
import { renderProposalPage } from '../../src/ui/views/proposal.js';
import { runCli, sandbox, type Sandbox } from './cli-helpers.js';

const FRONT = `---
name: release-helper
description: Cut a release of this package. Use when the user asks to release, publish or tag a version.
---
`;
const FIXED = `<!-- skillopt: fixed -->
- Sign every tag with the release key.
<!-- /skillopt: fixed -->
`;
const SKILL = `${FRONT}# Release helper

Cut releases from the main branch once the tests pass.

- Never include "DRAFT".
- Always include "DRAFT".

${FIXED}
The upload itself is scripts/release.sh; see references/publishing.md for the steps.
`;
const PUBLISHING = `# Publishing

- Always run "npm publish".
- Keep the version in package.json and the tag equal.
`;
const SCRIPT = '#!/bin/sh\nset -eu\necho "uploading $1"\n';

/** A release: the user wanted scripts/release.sh, no npm publish, no DRAFT, and a CHANGELOG line. */
const release = (id: string, version: string, split: string) => ({
  id,
  intent: `Release version ${version} of the package`,
  attempted_solution: `$ npm publish\nReleased ${version}. DRAFT notes follow.`,
  reference_kind: 'rule',
  judge: {
    kind: 'rule',
    checks: [
      { op: 'contains', arg: 'CHANGELOG' },
      { op: 'runs', arg: 'scripts/release.sh' },
      { op: 'not_runs', arg: 'npm publish' },
      { op: 'not_contains', arg: 'DRAFT' },
    ],
  },
  tags: [],
  split,
});

function writePackage(box: Sandbox): { dir: string; tasks: string } {
  const dir = path.join(box.project, '.claude/skills/release-helper');
  mkdirSync(path.join(dir, 'references'), { recursive: true });
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), SKILL);
  writeFileSync(path.join(dir, 'references/publishing.md'), PUBLISHING);
  writeFileSync(path.join(dir, 'scripts/release.sh'), SCRIPT);
  chmodSync(path.join(dir, 'scripts/release.sh'), 0o755);
  const tasks = path.join(box.root, 'tasks.json');
  const all = [
    release('t1', '1.2.0', 'train'),
    release('t2', '1.3.0', 'train'),
    release('v1', '2.0.0', 'val'),
    release('v2', '2.1.0', 'val'),
  ];
  writeFileSync(tasks, JSON.stringify({ format: 'skillopt_sleep.tasks.v1', reviewed: false, tasks: all }));
  return { dir, tasks };
}

interface PackageReport {
  skill_name: string;
  accepted: boolean;
  edits: Array<{ op: string; content: string; anchor: string }>;
  changed_files: string[];
  scripts: string[];
  tokens_before: number;
  tokens_after: number;
  token_budget: number;
}

describe('run --skill: a hand-written skill package', () => {
  it('deletes, replaces and adds bullets, keeps front matter, fixed text and scripts, and stages both files', async () => {
    const box = sandbox();
    const { dir, tasks } = writePackage(box);
    const run = await runCli(box, [
      'run',
      '--json',
      '--tasks-file',
      tasks,
      '--skill',
      '.claude/skills/release-helper',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    const schemaDoc = readFileSync(path.resolve(import.meta.dirname, '../../docs/report-schema.md'), 'utf8');
    for (const key of Object.keys(night)) expect(schemaDoc, key).toContain(`\`${key}\``);
    const [pkg] = night.skill_packages as PackageReport[];
    expect(pkg?.accepted).toBe(true);
    expect(pkg?.edits.map((e) => e.op).sort()).toEqual(['add', 'delete', 'replace']);
    expect(pkg?.changed_files).toEqual(['SKILL.md', 'references/publishing.md']);
    expect(pkg?.scripts).toEqual(['scripts/release.sh']);
    const diff = readFileSync(path.join(String(night.staging_dir), 'proposal.diff'), 'utf8');
    expect(diff).toContain('-- Always include "DRAFT".');
    expect(diff).toContain('-- Always run "npm publish".');
    expect(diff).toMatch(/^\+- .*Use "scripts\/release\.sh" instead of "npm publish"\.$/m);
    expect(diff).toMatch(/^\+- .*Always include "CHANGELOG"\.$/m);
    const reportMd = readFileSync(path.join(String(night.staging_dir), 'report.md'), 'utf8');
    expect(reportMd).toContain('references/publishing.md');

    // The dashboard's proposal page: the package's two files in one diff, its size and files changed.
    const db = openStore(path.join(box.stateHome, 'store.sqlite'));
    const view = await loadProposalView(box.project, String(night.proposal_id), db);
    db.close();
    const page = renderProposalPage(view, { nonce: 'n', static: true });
    expect(page).toContain('data-testid="skill-packages"');
    expect(page).toContain('SKILL.md, references/publishing.md');
    expect(page).toContain(`${pkg?.tokens_before} → ${pkg?.tokens_after} of 5000`);
    expect(page).toContain('b/.claude/skills/release-helper/SKILL.md');
    expect(page).toContain('b/.claude/skills/release-helper/references/publishing.md');

    const adopt = await runCli(box, ['adopt', '--skill', 'release-helper', '--json']);
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.json().updated_paths).toEqual([
      path.join(dir, 'SKILL.md'),
      path.join(dir, 'references/publishing.md'),
    ]);
    const skill = readFileSync(path.join(dir, 'SKILL.md'), 'utf8');
    expect(skill.startsWith(FRONT)).toBe(true);
    expect(frontmatterProblems(skill)).toEqual([]);
    expect(skill).toContain(FIXED);
    expect(skill).not.toContain('- Always include "DRAFT".');
    expect(skill).toContain('- Never include "DRAFT".');
    expect(skill).toMatch(/^- .*Always include "CHANGELOG"\.$/m);
    const publishing = readFileSync(path.join(dir, 'references/publishing.md'), 'utf8');
    const replaced = pkg?.edits.find((e) => e.op === 'replace')?.content ?? '';
    expect(replaced).toMatch(/Use "scripts\/release\.sh" instead of "npm publish"\.$/);
    expect(publishing).toBe(PUBLISHING.replace('Always run "npm publish".', replaced));
    expect(readFileSync(path.join(dir, 'scripts/release.sh'), 'utf8')).toBe(SCRIPT);

    const revert = await runCli(box, ['revert', '--json']);
    expect(revert.code, revert.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'SKILL.md'), 'utf8')).toBe(SKILL);
    expect(readFileSync(path.join(dir, 'references/publishing.md'), 'utf8')).toBe(PUBLISHING);
  });

  it("finds a skill by its name in the user's skill folder, and stages it there", async () => {
    const box = sandbox();
    const { tasks } = writePackage(box);
    const dir = path.join(box.home, '.claude/skills/notes-helper');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), SKILL.replace('name: release-helper', 'name: notes-helper'));
    const run = await runCli(box, ['run', '--json', '--tasks-file', tasks, '--skill', 'notes-helper']);
    expect(run.code, run.stderr).toBe(0);
    const [pkg] = run.json().skill_packages as PackageReport[];
    expect(pkg?.skill_name).toBe('notes-helper');
    expect(pkg?.changed_files).toEqual(['SKILL.md']);
    const manifest = JSON.parse(
      readFileSync(path.join(String(run.json().staging_dir), 'manifest.json'), 'utf8'),
    ) as { allowedRoots: string[] };
    expect(manifest.allowedRoots).toContain(path.join(box.home, '.claude/skills'));
  });

  it('trains a discovered skill in the skill format whole under --multi-skill-fanout', async () => {
    const box = sandbox();
    const { dir } = writePackage(box);
    const hinted = path.join(box.root, 'hinted.json');
    const all = ['train', 'train', 'val', 'val'].map((split, i) => ({
      ...release(`h${i}`, `3.${i}.0`, split),
      skill_hint: 'release-helper',
    }));
    writeFileSync(hinted, JSON.stringify({ format: 'skillopt_sleep.tasks.v1', reviewed: false, tasks: all }));
    const run = await runCli(box, ['run', '--json', '--tasks-file', hinted, '--multi-skill-fanout']);
    expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(
      readFileSync(path.join(String(run.json().staging_dir), 'manifest.json'), 'utf8'),
    ) as { targets: Array<{ name: string; livePath: string }> };
    expect(manifest.targets.map((t) => [t.name, path.relative(dir, t.livePath)])).toEqual([
      ['release-helper', 'SKILL.md'],
      ['release-helper', path.join('references', 'publishing.md')],
    ]);
    const diff = readFileSync(path.join(String(run.json().staging_dir), 'proposal.diff'), 'utf8');
    expect(diff).toContain('-- Always include "DRAFT".');
    expect(diff).not.toContain('SKILLOPT-SLEEP:LEARNED');
  });

  it('trains a skill both named and discovered once, by its --skill pass', async () => {
    const box = sandbox();
    const { dir } = writePackage(box);
    const hinted = path.join(box.root, 'hinted.json');
    const all = ['train', 'train', 'val', 'val'].map((split, i) => ({
      ...release(`h${i}`, `3.${i}.0`, split),
      skill_hint: 'release-helper',
    }));
    writeFileSync(hinted, JSON.stringify({ format: 'skillopt_sleep.tasks.v1', reviewed: false, tasks: all }));
    const run = await runCli(box, [
      'run',
      '--json',
      '--tasks-file',
      hinted,
      '--multi-skill-fanout',
      '--skill',
      dir,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    expect((night.skill_groups as Array<{ status: string }>).map((g) => g.status)).toEqual(['skipped']);
    const [pkg] = night.skill_packages as PackageReport[];
    expect(pkg?.changed_files).toEqual(['SKILL.md', 'references/publishing.md']);
    const manifest = JSON.parse(
      readFileSync(path.join(String(night.staging_dir), 'manifest.json'), 'utf8'),
    ) as { targets: unknown[] };
    expect(manifest.targets).toHaveLength(2);
  });

  it('refuses a skill path that leads out of the project', async () => {
    const box = sandbox();
    const { tasks } = writePackage(box);
    const outside = path.join(box.root, 'elsewhere');
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, 'SKILL.md'), SKILL);
    const run = await runCli(box, ['run', '--json', '--tasks-file', tasks, '--skill', '../elsewhere']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('outside the project');
    // A link inside the project that leads out of it is the same path.
    mkdirSync(path.join(box.project, 'linked'));
    symlinkSync(path.join(outside, 'SKILL.md'), path.join(box.project, 'linked/SKILL.md'));
    const linked = await runCli(box, ['run', '--json', '--tasks-file', tasks, '--skill', 'linked/SKILL.md']);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('outside the project');
    expect(readFileSync(path.join(outside, 'SKILL.md'), 'utf8')).toBe(SKILL);
  });
});

describe('run --skill: twenty nights of the same lessons', () => {
  it('keeps the skill within its token budget and its size flat', async () => {
    const box = sandbox();
    const { dir } = writePackage(box);
    // Room for about one more rule than the hand-written skill holds.
    const budget = skillBodyTokens(SKILL) + 20;
    mkdirSync(box.stateHome, { recursive: true });
    writeFileSync(path.join(box.stateHome, 'config.json'), JSON.stringify({ skill_token_budget: budget }));
    const wordings = ['Release version', 'Publish version', 'Ship version'];
    const sizes: number[] = [];
    for (let night = 1; night <= 20; night++) {
      const tasks = path.join(box.root, `tasks-${night}.json`);
      const word = wordings[night % wordings.length] ?? 'Release version';
      const all = ['train', 'train', 'val', 'val'].map((split, i) => ({
        ...release(`n${night}-${i}`, `${night}.${i}.0`, split),
        intent: `${word} ${night}.${i}.0 of the package`,
      }));
      writeFileSync(
        tasks,
        JSON.stringify({ format: 'skillopt_sleep.tasks.v1', reviewed: false, tasks: all }),
      );
      const run = await runCli(box, ['run', '--json', '--tasks-file', tasks, '--skill', dir]);
      expect(run.code, run.stderr).toBe(0);
      const [pkg] = run.json().skill_packages as PackageReport[];
      expect(pkg?.tokens_after).toBeLessThanOrEqual(budget);
      if (String(run.json().staging_dir) !== '') {
        const adopt = await runCli(box, ['adopt', '--json']);
        expect(adopt.code, adopt.stderr).toBe(0);
      }
      const skill = readFileSync(path.join(dir, 'SKILL.md'), 'utf8');
      const bullets = skill.split('\n').filter((l) => l.startsWith('- '));
      expect(new Set(bullets).size).toBe(bullets.length);
      sizes.push(skillBodyTokens(skill));
      expect(readFileSync(path.join(dir, 'scripts/release.sh'), 'utf8')).toBe(SCRIPT);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget);
    // Flat: after the first nights learned the lessons, no night grows the skill.
    expect(new Set(sizes.slice(5)).size).toBe(1);
    // The report shows the size of each night that changed the skill.
    const report = await runCli(box, ['report', '--html']);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain('data-testid="skill-sizes"');
    const rows = [...report.stdout.matchAll(/data-testid="skill-size-row"/g)];
    expect(rows.length).toBeGreaterThan(0);
    expect(report.stdout).toContain(`→ ${sizes[0]}`);
  }, 600_000);
});
