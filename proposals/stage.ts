/**
 * Staging: write a night's proposal (proposed files, one unified diff, the reports, `manifest.json`)
 * into a temporary folder and publish it by renaming that folder to the proposal's id
 * (`staging-dir.ts`): a proposal folder is always whole. A failed staging removes its folder. A
 * proposal identical to the newest pending one is not staged again (`pending-twin.ts`).
 */
import { mkdir, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  InputError,
  IoError,
  SkilloptError,
  errorMessage,
  errnoCode,
  isMissingPathError,
} from '../src/core/errors.js';
import { sha256Hex } from '../src/core/hash.js';
import { mapStrings, plainText } from '../src/core/safe-text.js';
import { ensureProjectStateDir } from '../src/core/io/project-state-dir.js';
import {
  COMPARISON_FILE,
  DIFF_FILE,
  MANIFEST_FILE,
  REPORT_JSON_FILE,
  REPORT_MD_FILE,
  checkProposalsRoot,
  proposalsRootOf,
} from './list.js';
import { unifiedDiff } from './diff.js';
import { pendingTwin } from './pending-twin.js';
import { commitStagingDir, createStagingDir } from './staging-dir.js';
import { MANIFEST_SCHEMA, MANIFEST_VERSION } from './types.js';
import type {
  Checkpoint,
  ManifestTarget,
  ProposalManifest,
  StageProposalOptions,
  StageTarget,
  StagedProposal,
} from './types.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../src/core/io/private-mode.js';
import { writeFileAtomic } from '../src/core/io/atomic-file.js';
import { RULES_FILE } from '../src/core/rule-evidence.js';

interface PlannedTarget {
  input: StageTarget;
  livePath: string;
  /** The live path relative to the project, with `/` separators, for the diff headers. */
  displayPath: string;
  proposedFile: string;
}

export async function stageProposal(options: StageProposalOptions): Promise<StagedProposal> {
  const project = path.resolve(options.projectDir);
  assertNight(options.night);
  const baseId = formatProposalId(options.now, options.night);
  await assertDirectory(project);
  const targets = await planTargets(project, options.targets);
  const allowedRoots = options.allowedRoots?.map((r) => path.resolve(r));
  const twin = await pendingTwin(project, targets.map(toManifestTarget), allowedRoots, options.ledger);
  if (twin !== null) return { ...twin, unchanged: true };
  // The reports and the diff quote transcripts and model replies: no escape sequences reach them.
  const reportJsonText = serialiseReport(mapStrings(options.reportJson));
  const diff = plainText(targets.map((t) => diffForTarget(t)).join(''));
  const comparison = options.comparison === undefined ? undefined : plainText(options.comparison);
  const rules = options.rules === undefined ? undefined : plainText(options.rules);

  const root = proposalsRootOf(project);
  await ensureProposalsRoot(project, root);
  const staging = await createStagingDir(root);
  const step = stepper(options.checkpoint);
  const manifestFor = (id: string): ProposalManifest => ({
    schema: MANIFEST_SCHEMA,
    version: MANIFEST_VERSION,
    id,
    project,
    night: options.night,
    ...(options.nightId !== undefined ? { nightId: options.nightId } : {}),
    createdAt: options.now,
    targets: targets.map(toManifestTarget),
    ...(allowedRoots !== undefined ? { allowedRoots } : {}),
    ...(comparison !== undefined ? { comparisonSha256: sha256Hex(comparison) } : {}),
    ...(rules !== undefined ? { rulesSha256: sha256Hex(rules) } : {}),
  });
  let manifest = manifestFor(baseId);
  try {
    await mkdir(path.join(staging, 'files'), { mode: PRIVATE_DIR_MODE });
    for (const target of targets) {
      await writeFileAtomic(
        path.join(staging, target.proposedFile),
        target.input.proposedText,
        PRIVATE_FILE_MODE,
      );
      step('proposed file');
    }
    await writeFileAtomic(path.join(staging, DIFF_FILE), diff, PRIVATE_FILE_MODE);
    step('diff');
    await writeFileAtomic(path.join(staging, REPORT_MD_FILE), plainText(options.reportMd), PRIVATE_FILE_MODE);
    await writeFileAtomic(path.join(staging, REPORT_JSON_FILE), reportJsonText, PRIVATE_FILE_MODE);
    if (comparison !== undefined)
      await writeFileAtomic(path.join(staging, COMPARISON_FILE), comparison, PRIVATE_FILE_MODE);
    if (rules !== undefined) await writeFileAtomic(path.join(staging, RULES_FILE), rules, PRIVATE_FILE_MODE);
    step('reports');
    const { id, dir } = await commitStagingDir(staging, root, baseId, {
      claim: async (candidate) => {
        manifest = manifestFor(candidate);
        const text = `${JSON.stringify(manifest, null, 2)}\n`;
        await writeFileAtomic(path.join(staging, MANIFEST_FILE), text, PRIVATE_FILE_MODE);
        // The store's copy is what makes the folder ours: a folder arriving with a clone has none.
        const reserved = options.ledger.reserve({
          id: candidate,
          stagingDir: staging,
          createdAt: options.now,
          ...(options.nightId !== undefined ? { nightId: options.nightId } : {}),
          targets: manifest.targets.map((t) => t.livePath),
          manifest: text,
        });
        if (reserved) step('manifest');
        return reserved;
      },
      unclaim: (candidate) => options.ledger.release(candidate),
    });
    options.ledger.published(id, dir);
    step('published');
    return { id, dir, manifest };
  } catch (err) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    if (err instanceof SkilloptError) throw err;
    throw new IoError(`cannot stage proposal ${manifest.id} in ${root}: ${errorMessage(err)}`);
  }
}

/** Numbered checkpoints for the crash tests (`StageProposalOptions.checkpoint`). */
function stepper(hook: Checkpoint | undefined): (what: string) => void {
  let n = 0;
  return (what) => hook?.(++n, what);
}

/** `YYYYMMDD-HHMMSS-<night>` in UTC. */
export function formatProposalId(now: number, night: number): string {
  assertEpochMs(now, 'staging time');
  const iso = new Date(now).toISOString(); // 2025-01-02T03:04:05.678Z
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${night}`;
}

/** Times are stored as non-negative integer epoch ms (the manifest and receipt schemas insist). */
export function assertEpochMs(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0 || Number.isNaN(new Date(value).getTime())) {
    throw new InputError(`invalid ${what} ${String(value)}: expected integer epoch milliseconds`);
  }
}

function assertNight(night: number): void {
  if (!Number.isSafeInteger(night) || night < 0) {
    throw new InputError(`invalid night ${String(night)}: expected a non-negative integer`);
  }
}

async function assertDirectory(dir: string): Promise<void> {
  try {
    if ((await stat(dir)).isDirectory()) return;
  } catch (err) {
    if (!isMissingPathError(err)) throw new IoError(`cannot read ${dir}: ${errorMessage(err)}`);
  }
  throw new InputError(`project directory ${dir} does not exist or is not a directory`);
}

/**
 * Resolve and check every target. Targets whose proposed text equals the live text are dropped:
 * staging them would only make adoption rewrite (or create, when empty) an unchanged file.
 */
async function planTargets(project: string, inputs: readonly StageTarget[]): Promise<PlannedTarget[]> {
  const realProject = await realpath(project);
  const seen = new Map<string, string>();
  const planned: PlannedTarget[] = [];
  for (const input of inputs) {
    const livePath = path.resolve(input.livePath);
    await assertTargetAllowed(livePath, project, realProject, input.allowOutside === true);
    const realLive = await resolveRealPath(livePath);
    const earlier = seen.get(realLive);
    if (earlier !== undefined) {
      throw new InputError(`targets ${earlier} and ${livePath} are the same file`);
    }
    seen.set(realLive, livePath);
    if (input.baseText === input.proposedText) continue;
    // Adoption never creates an empty file (the reference created an empty CLAUDE.md).
    if (input.baseText == null && input.proposedText.trim() === '') continue;
    const n = planned.length + 1;
    planned.push({
      input,
      livePath,
      displayPath: toPosix(path.relative(project, livePath)),
      proposedFile: `files/${n}-${path.basename(livePath)}`,
    });
  }
  if (planned.length === 0) {
    throw new InputError('nothing to stage: no target changes its live file', 'nothing_to_stage');
  }
  return planned;
}

/**
 * Live files must sit inside the project (both as written and after resolving symlinks) unless
 * the caller explicitly allowed this target outside; never inside the proposal store itself.
 */
export async function assertTargetAllowed(
  livePath: string,
  project: string,
  realProject: string,
  allowOutside: boolean,
): Promise<void> {
  if (isInsideDir(livePath, proposalsRootOf(project))) {
    throw new InputError(`target ${livePath} is inside the proposal store`);
  }
  if (allowOutside) return;
  if (!isInsideDir(livePath, project) || !isInsideDir(await resolveRealPath(livePath), realProject)) {
    throw new InputError(
      `target ${livePath} is outside the project ${project}; pass allowOutside for this target to allow it`,
    );
  }
}

/** True when `child` is strictly below `parent` (both absolute). */
export function isInsideDir(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/**
 * The path with every symlink resolved, also for files that do not exist yet: the nearest existing
 * ancestor is resolved and the missing tail appended.
 */
export async function resolveRealPath(target: string): Promise<string> {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch (err) {
      const parent = path.dirname(current);
      if (!isMissingPathError(err) || parent === current) {
        throw new IoError(`cannot resolve ${target}: ${errnoCode(err) ?? errorMessage(err)}`);
      }
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

function serialiseReport(report: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(report, null, 2);
  } catch (err) {
    throw new InputError(`report.json is not serialisable: ${errorMessage(err)}`);
  }
  if (text === undefined) throw new InputError('report.json is not serialisable: nothing to write');
  return `${text}\n`;
}

function toManifestTarget(target: PlannedTarget): ManifestTarget {
  const { input } = target;
  return {
    kind: input.kind,
    livePath: target.livePath,
    proposedFile: target.proposedFile,
    baseSha256: input.baseText == null ? '' : sha256Hex(input.baseText),
    proposedSha256: sha256Hex(input.proposedText),
    ...(input.allowOutside === true ? { allowOutside: true as const } : {}),
    ...(input.name !== undefined
      ? { name: input.name }
      : input.kind === 'skill'
        ? { name: path.basename(path.dirname(target.livePath)) }
        : {}),
  };
}

async function ensureProposalsRoot(project: string, root: string): Promise<void> {
  // Check before mkdir too: mkdir -p would happily follow a symlinked root.
  if (await checkProposalsRoot(root)) return;
  try {
    ensureProjectStateDir(project);
    await mkdir(root, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (err) {
    throw new IoError(`cannot create ${root}: ${errorMessage(err)}`);
  }
  await checkProposalsRoot(root);
}

function diffForTarget(target: PlannedTarget): string {
  const { baseText, proposedText } = target.input;
  return unifiedDiff(baseText, proposedText, {
    oldLabel: baseText == null ? '/dev/null' : `a/${target.displayPath}`,
    newLabel: `b/${target.displayPath}`,
  });
}
