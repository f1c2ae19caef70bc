/**
 * Every agent's memory file as a night's target: written by a mock night, adopted to the staged bytes
 * and reverted to the user's bytes, each format's frontmatter kept (Cursor's `.mdc` rules, Copilot's
 * `.instructions.md`), and a new rule file started with a frontmatter its agent applies.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { frontmatterBlock, frontmatterProblem, memoryFormatOf } from '../../src/night/memory-format.js';
import { PERSONAS, runCli, sandbox, type Sandbox } from './cli-helpers.js';

const TASKS = path.join(PERSONAS, 'researcher.tasks.json');

function projectConfig(project: string, config: object): void {
  mkdirSync(path.join(project, '.skillopt-sleep'), { recursive: true });
  writeFileSync(path.join(project, '.skillopt-sleep/config.json'), JSON.stringify(config));
}

interface Manifest {
  targets: Array<{ kind: string; livePath: string; proposedFile: string }>;
}

/** A night on the memory file alone, then adopt and revert; returns the staged and adopted bytes. */
async function nightAdoptRevert(box: Sandbox, file: string, before: string | null) {
  const live = path.join(box.project, file);
  const run = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
  expect(run.code, run.stderr).toBe(0);
  const night = run.json();
  expect(night.memory).toMatchObject({ target_path: live, accepted: true });
  const dir = String(night.staging_dir);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.targets.map((t) => [t.kind, t.livePath])).toEqual([['memory', live]]);
  const staged = readFileSync(path.join(dir, manifest.targets[0]?.proposedFile ?? ''));

  const adopt = await runCli(box, ['adopt', '--memory', '--json']);
  expect(adopt.code, adopt.stderr).toBe(0);
  const adopted = readFileSync(live);
  expect(adopted.equals(staged)).toBe(true);

  const revert = await runCli(box, ['revert', '--json']);
  expect(revert.code, revert.stderr).toBe(0);
  if (before === null) expect(existsSync(live)).toBe(false);
  else expect(readFileSync(live).equals(Buffer.from(before))).toBe(true);
  return { adopted: adopted.toString('utf8'), live };
}

const HAND = '# Team notes\r\n\r\nKeep these  spaces,\tthis tab and CRLF.\r\n';

describe('memory files of every agent', () => {
  const plain: Array<[string, string]> = [
    ['AGENTS.md', 'codex'],
    ['CLAUDE.md', 'claude'],
    ['GEMINI.md', 'gemini'],
    ['.github/copilot-instructions.md', 'copilot'],
  ];
  for (const [file, source] of plain) {
    it(`${file}: the agent's own file (${source}), hand-written text kept byte for byte`, async () => {
      const box = sandbox();
      projectConfig(box.project, { evolve_skill: false, evolve_memory: true, transcript_source: source });
      mkdirSync(path.dirname(path.join(box.project, file)), { recursive: true });
      writeFileSync(path.join(box.project, file), HAND);
      const { adopted } = await nightAdoptRevert(box, file, HAND);
      expect(adopted.startsWith(HAND)).toBe(true);
    });
  }

  it('a Cursor rule (.mdc): its frontmatter (globs as Cursor writes them) stays byte for byte', async () => {
    const box = sandbox();
    const file = '.cursor/rules/python.mdc';
    projectConfig(box.project, { evolve_skill: false, evolve_memory: true, memory_target: file });
    const hand =
      '---\ndescription: Python style\nglobs: **/*.py, scripts/*.py\nalwaysApply: false\n---\n\n# Python\n\n- Type hints everywhere.\n';
    mkdirSync(path.join(box.project, '.cursor/rules'), { recursive: true });
    writeFileSync(path.join(box.project, file), hand);
    const { adopted, live } = await nightAdoptRevert(box, file, hand);
    expect(memoryFormatOf(live)).toBe('cursor-rule');
    expect(adopted.startsWith(hand)).toBe(true);
    expect(frontmatterBlock(adopted)).toBe(frontmatterBlock(hand));
    expect(frontmatterProblem('cursor-rule', adopted)).toBeNull();
  });

  it('a new Cursor rule for the Cursor agent starts with a frontmatter that always applies', async () => {
    const box = sandbox();
    projectConfig(box.project, { evolve_skill: false, evolve_memory: true, transcript_source: 'cursor-cli' });
    const file = '.cursor/rules/skillopt-sleep-learned.mdc';
    const { adopted } = await nightAdoptRevert(box, file, null);
    expect(frontmatterProblem('cursor-rule', adopted)).toBeNull();
    expect(frontmatterBlock(adopted)).toContain('alwaysApply: true\n');
    expect(existsSync(path.join(box.project, 'AGENTS.md'))).toBe(false);
  });

  it("Copilot's scoped instructions (.instructions.md): applyTo kept byte for byte", async () => {
    const box = sandbox();
    const file = '.github/instructions/research.instructions.md';
    projectConfig(box.project, { evolve_skill: false, evolve_memory: true, memory_target: file });
    const hand =
      "---\napplyTo: 'docs/**/*.md,notes/**'\ndescription: How we write research notes\n---\nCite every claim.\n";
    mkdirSync(path.join(box.project, '.github/instructions'), { recursive: true });
    writeFileSync(path.join(box.project, file), hand);
    const { adopted, live } = await nightAdoptRevert(box, file, hand);
    expect(memoryFormatOf(live)).toBe('copilot-instructions');
    expect(adopted.startsWith(hand)).toBe(true);
    expect(frontmatterProblem('copilot-instructions', adopted)).toBeNull();
  });

  it('a new scoped instructions file starts with applyTo', async () => {
    const box = sandbox();
    const file = '.github/instructions/learned.instructions.md';
    projectConfig(box.project, { evolve_skill: false, evolve_memory: true, memory_target: file });
    const { adopted } = await nightAdoptRevert(box, file, null);
    expect(frontmatterProblem('copilot-instructions', adopted)).toBeNull();
  });

  it('refuses to stage a rule file whose frontmatter Cursor would skip, and says why', async () => {
    const box = sandbox();
    const file = '.cursor/rules/broken.mdc';
    projectConfig(box.project, { evolve_skill: false, evolve_memory: true, memory_target: file });
    const hand = '---\nalwaysApply: "true"\n---\nbody\n';
    mkdirSync(path.join(box.project, '.cursor/rules'), { recursive: true });
    writeFileSync(path.join(box.project, file), hand);
    const run = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    expect(String(night.staging_dir)).toBe('');
    expect((night.notes as string[]).join('\n')).toContain('not true or false');
    expect(readFileSync(path.join(box.project, file), 'utf8')).toBe(hand);
  });
});

describe('lessons routed to their agents', () => {
  const task = (id: string, sessions: string[], term: string, split: string) => ({
    id,
    intent: `Question ${id}`,
    outcome: 'fail',
    reference_kind: 'rule',
    reference: `answer with ${term}`,
    attempted_solution: 'an answer',
    judge: { kind: 'rule', checks: [{ op: 'contains', arg: term }] },
    split,
    source_sessions: sessions,
  });

  it("writes each agent's file and AGENTS.md for what two agents shared, in one proposal adopted and reverted whole", async () => {
    const box = sandbox();
    projectConfig(box.project, { evolve_skill: false, evolve_memory: true });
    const splits = ['train', 'train', 'val', 'val'];
    const tasks = [
      ...splits.map((s, i) => task(`claude_${i}`, [`claude:a${i}`], 'kg/m3', s)),
      ...splits.map((s, i) => task(`both_${i}`, [`claude:b${i}`, `gemini:b${i}`], 'SI units', s)),
    ];
    const file = path.join(box.project, 'tasks.json');
    writeFileSync(
      file,
      JSON.stringify({ format: 'skillopt_sleep.tasks.v1', project: box.project, reviewed: true, tasks }),
    );
    const claude = path.join(box.project, 'CLAUDE.md');
    writeFileSync(claude, HAND);
    const run = await runCli(box, ['run', '--json', '--tasks-file', file]);
    expect(run.code, run.stderr).toBe(0);
    const night = run.json();
    const files = night.memory_files as Array<{
      target_path: string;
      chosen_by: string;
      learned_rules: string[];
    }>;
    expect(files.map((f) => [path.relative(box.project, f.target_path), f.chosen_by])).toEqual([
      ['CLAUDE.md', 'claude'],
      ['AGENTS.md', 'shared'],
    ]);
    expect(files[0]?.learned_rules.join('\n')).toContain('kg/m3');
    expect(files[0]?.learned_rules.join('\n')).not.toContain('SI units');
    expect(files[1]?.learned_rules.join('\n')).toContain('SI units');
    expect(files[1]?.learned_rules.join('\n')).not.toContain('kg/m3');
    const dir = String(night.staging_dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    const agents = path.join(box.project, 'AGENTS.md');
    expect(manifest.targets.map((t) => t.livePath)).toEqual([claude, agents]);
    expect((await runCli(box, ['adopt', '--memory'])).code).toBe(0);
    for (const t of manifest.targets)
      expect(readFileSync(t.livePath).equals(readFileSync(path.join(dir, t.proposedFile)))).toBe(true);
    expect((await runCli(box, ['revert'])).code).toBe(0);
    expect(readFileSync(claude, 'utf8')).toBe(HAND);
    expect(existsSync(agents)).toBe(false);
    expect(existsSync(path.join(box.project, 'GEMINI.md'))).toBe(false);
  });
});
