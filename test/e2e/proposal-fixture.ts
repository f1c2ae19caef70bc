/**
 * A project with hand-written skills and memory, and a proposal staged for it whose edits sit only in
 * the learned block, for the adoption, revert, git and crash tests. Optionally a real git repository.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stageProposal, type StagedProposal } from '../../proposals/index.js';
import type { ProposalLedger } from '../../src/core/proposal-ledger.js';
import { openStore } from '../../src/store/db.js';
import { proposalLedger } from '../../src/store/proposal-ledger-repo.js';
import { applyEdits } from '../../src/trainer/learned-block.js';
import type { Sandbox } from './cli-helpers.js';

export interface ProposalFixture {
  alpha: string;
  beta: string;
  memory: string;
  /** A skill that does not exist yet (adoption creates it and its folder). */
  fresh: string;
  originals: Map<string, string | null>;
  proposed: Map<string, string>;
  staged: StagedProposal;
}

export const HAND_ALPHA =
  '---\nname: alpha\ndescription: hand written\n---\n\n# Alpha\n\nKeep  this\ttext   as is.\n\n\n';
export const HAND_BETA = '# Beta\r\n\r\nWindows line endings stay.\r\n';
export const HAND_MEMORY = '# Project notes\n\nNo trailing newline at the end';

const rule = (content: string) => [
  { target: 'skill' as const, op: 'add' as const, content, anchor: '', rationale: 'test' },
];

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
  });
}

export function initRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Test User');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'commit.gpgsign', 'false');
}

/** `fn` with the sandbox store's record of its project's proposals (as a night would stage them). */
export async function withSandboxLedger<T>(
  box: Sandbox,
  fn: (ledger: ProposalLedger) => Promise<T>,
): Promise<T> {
  const db = openStore(path.join(box.stateHome, 'store.sqlite'));
  try {
    return await fn(proposalLedger(db, box.project));
  } finally {
    db.close();
  }
}

export async function stageFixture(
  box: Sandbox,
  options: { withFresh?: boolean; now?: number } = {},
): Promise<ProposalFixture> {
  const alpha = path.join(box.project, '.claude/skills/alpha/SKILL.md');
  const beta = path.join(box.project, '.agents/skills/beta/SKILL.md');
  const memory = path.join(box.project, 'CLAUDE.md');
  const fresh = path.join(box.project, '.claude/skills/fresh/SKILL.md');
  mkdirSync(path.dirname(alpha), { recursive: true });
  mkdirSync(path.dirname(beta), { recursive: true });
  writeFileSync(alpha, HAND_ALPHA);
  writeFileSync(beta, HAND_BETA);
  writeFileSync(memory, HAND_MEMORY);
  const originals = new Map<string, string | null>([
    [alpha, HAND_ALPHA],
    [beta, HAND_BETA],
    [memory, HAND_MEMORY],
  ]);
  const proposed = new Map<string, string>([
    [alpha, applyEdits(HAND_ALPHA, rule('Use pnpm, never npm.')).doc],
    [beta, applyEdits(HAND_BETA, rule('Run the linter before committing.')).doc],
    [memory, applyEdits(HAND_MEMORY, rule('Answers in British English.'), 'memory').doc],
  ]);
  if (options.withFresh === true) {
    originals.set(fresh, null);
    proposed.set(fresh, '---\nname: fresh\n---\n\n- new rule\n');
  }
  const staged = await withSandboxLedger(box, (ledger) =>
    stageProposal({
      projectDir: box.project,
      ledger,
      night: 1,
      now: options.now ?? Date.UTC(2026, 0, 1, 3, 0, 0),
      targets: [...proposed.entries()].map(([livePath, proposedText]) => ({
        kind: livePath === memory ? ('memory' as const) : ('skill' as const),
        livePath,
        baseText: originals.get(livePath) ?? null,
        proposedText,
      })),
      reportMd:
        '# night 1\n\nUntrusted \u001b[31mred\u001b[0m text.\n\n- [skill/add] Match inst\\_1 with \\[\\\\s\\\\S\\]\n',
      reportJson: { schema_version: 1, night: 1, baseline: 0.25, candidate: 0.75 },
    }),
  );
  return { alpha, beta, memory, fresh, originals, proposed, staged };
}

/** null when the file does not exist. */
export function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
