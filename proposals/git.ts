/**
 * `adopt --commit`: commit exactly the files an adoption touched, and nothing else. Checked before
 * any file changes (refused when a touched file has uncommitted edits of the user's); committed with
 * `git commit --only -- <paths>`, which leaves whatever else the user staged staged and uncommitted.
 */
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
// simple-git is loaded on the first git call, not with every command that imports proposals/.
import type { SimpleGit } from 'simple-git';
import { AdoptRefusedError, errorMessage } from '../src/core/errors.js';
import { isInsideDir } from './stage.js';
import type { GitOutcome } from './types.js';

export type GitPlan =
  | { repo: false; message: string }
  | {
      repo: true;
      root: string;
      /** Touched files inside the repository, relative to its root, that will be committed. */
      paths: string[];
      /** Files left out of the commit and why (ignored by git, outside the repository). */
      leftOut: string[];
    };

/** Where the project's repository is and which touched paths it will commit; refuses dirty targets. */
export async function gitPrecheck(
  project: string,
  writePaths: readonly string[],
  verb: 'adopt' | 'revert' = 'adopt',
): Promise<GitPlan> {
  const git = (await import('simple-git')).simpleGit({ baseDir: project });
  let root: string;
  try {
    if (!(await git.checkIsRepo())) return notARepo(project, verb);
    root = await realpath((await git.revparse(['--show-toplevel'])).trim());
  } catch {
    return notARepo(project, verb);
  }
  const inside = writePaths.filter((p) => isInsideDir(p, root));
  const leftOut = writePaths.filter((p) => !isInsideDir(p, root)).map((p) => `${p} (outside ${root})`);
  const relative = inside.map((p) => toPosix(path.relative(root, p)));
  const ignored = new Set(relative.length > 0 ? await git.checkIgnore(relative) : []);
  const paths = relative.filter((p) => !ignored.has(p));
  for (const p of ignored) leftOut.push(`${p} (ignored by git)`);
  const dirty = paths.length > 0 ? await dirtyPaths(git, paths) : [];
  if (dirty.length > 0) {
    throw new AdoptRefusedError(
      `cannot commit the ${verb === 'adopt' ? 'adoption' : 'revert'}: ${dirty.join(', ')} ${dirty.length === 1 ? 'has' : 'have'} uncommitted changes; commit or stash them first, or ${verb} without --commit`,
      'uncommitted_changes',
    );
  }
  return { repo: true, root, paths, leftOut };
}

function notARepo(project: string, verb: 'adopt' | 'revert'): GitPlan {
  const done = verb === 'adopt' ? 'adopted' : 'reverted';
  return { repo: false, message: `${project} is not inside a git repository; ${done} without committing` };
}

/** Touched paths that differ from HEAD (staged or not) or exist untracked. */
async function dirtyPaths(git: SimpleGit, paths: readonly string[]): Promise<string[]> {
  const out = await git.raw(['status', '--porcelain=v1', '--untracked-files=all', '--', ...paths]);
  return out
    .split('\n')
    .filter((line) => line.length > 3)
    .map((line) => `${line.slice(3)} (${line.slice(0, 2).trim() === '??' ? 'untracked' : 'modified'})`);
}

export async function commitAdoption(
  plan: GitPlan,
  proposalDir: string,
  id: string,
  writePaths: readonly string[],
  verb: 'adopt' | 'revert' = 'adopt',
): Promise<GitOutcome> {
  if (!plan.repo) return { status: 'not_a_repository', message: plan.message, paths: [] };
  if (plan.paths.length === 0 || writePaths.length === 0) {
    return {
      status: 'nothing_to_commit',
      message: `no touched file is committed by git: ${plan.leftOut.join(', ')}`,
      paths: [],
    };
  }
  const git = (await import('simple-git')).simpleGit({ baseDir: plan.root });
  const message = await commitMessage(proposalDir, id, verb);
  try {
    const tracked = new Set(
      (await git.raw(['ls-files', '--', ...plan.paths])).split('\n').filter((l) => l !== ''),
    );
    const untracked = plan.paths.filter((p) => !tracked.has(p));
    // A new file must be known to the index before `commit --only` can take it; nothing else is added.
    const existing = await existingPaths(plan.root, untracked);
    if (existing.length > 0) await git.raw(['add', '--', ...existing]);
    await git.raw(['commit', '--only', '-m', message, '--', ...plan.paths]);
    const commit = (await git.revparse(['HEAD'])).trim();
    const left = plan.leftOut.length > 0 ? ` (left out: ${plan.leftOut.join(', ')})` : '';
    return {
      status: 'committed',
      commit,
      message: `committed ${commit.slice(0, 12)}${left}`,
      paths: plan.paths,
    };
  } catch (err) {
    return {
      status: 'failed',
      message: `the files were written but not committed: git commit failed: ${errorMessage(err).trim()}`,
      paths: plan.paths,
    };
  }
}

async function existingPaths(root: string, paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    if (
      await readFile(path.join(root, p)).then(
        () => true,
        () => false,
      )
    )
      out.push(p);
  }
  return out;
}

/** Names the proposal and the validation score change from its report.json. */
async function commitMessage(proposalDir: string, id: string, verb: 'adopt' | 'revert'): Promise<string> {
  const scores = await proposalScores(proposalDir);
  if (verb === 'revert') {
    return `skillopt-sleep: revert proposal ${id}${scores}\n\nRestored by \`skillopt-sleep revert --commit\`.`;
  }
  return `skillopt-sleep: adopt proposal ${id}${scores}\n\nApplied by \`skillopt-sleep adopt --commit\`; undo with \`skillopt-sleep revert ${id}\`.`;
}

/** `, night N, validation score a -> b` from the proposal's report.json ('' when unreadable). */
export async function proposalScores(proposalDir: string): Promise<string> {
  let scores = '';
  try {
    const report: unknown = JSON.parse(await readFile(path.join(proposalDir, 'report.json'), 'utf8'));
    if (typeof report === 'object' && report !== null) {
      const r = report as Record<string, unknown>;
      const fmt = (x: unknown): string => (typeof x === 'number' ? x.toFixed(3) : '—');
      if ('baseline' in r || 'candidate' in r) {
        scores = `, validation score ${fmt(r.baseline)} -> ${fmt(r.candidate)}`;
      }
      if (typeof r.night === 'number') scores = `, night ${r.night}${scores}`;
    }
  } catch {
    // The message still names the proposal.
  }
  return scores;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
