/**
 * Per-skill proposals (`multi_skill_fanout`, opt-in): task instances whose session used one named
 * skill are grouped by it, and each group is trained against that skill's own live SKILL.md (found by
 * `skill-roots.ts`). Groups whose skill is missing, ambiguous or rejected are skipped and reported;
 * their tasks stay with the managed skill. Grouped tasks leave the managed pass, so one rule is not
 * learned into two skills (the reference trained the managed skill on every task). A skill whose
 * SKILL.md follows the skill format (front matter) is trained whole, with its references, like a skill
 * named with `--skill`; one without gets a learned block, as the managed skill does.
 */
import path from 'node:path';
import type { StageTarget } from '../../proposals/index.js';
import { AnswerPendingError, errorMessage } from '../core/errors.js';
import type { TaskRecord } from '../core/task.js';
import type { Config } from '../config/schema.js';
import type { NightStepResult } from './night-step.js';
import { finiteOrNull, type SkillGroupReport } from './night-report.js';
import { resolveSkill, skillRoots, type SkillResolution } from './skill-roots.js';
import { readUtf8OrNull } from './skill-target.js';
import type { DocEditor } from '../core/doc-editor.js';
import { frontmatterProblems } from '../skill-package/frontmatter.js';
import { joinPackage, readSkillPackage } from '../skill-package/package.js';
import { skillTextEditor } from '../skill-package/text-editor.js';
import { packageTargets } from './package-targets.js';

export interface FanoutPlan {
  roots: string[];
  groups: Array<{ name: string; resolution: SkillResolution; tasks: TaskRecord[] }>;
  /** Tasks the managed skill trains on: unhinted, hinted to it, or hinted to a skill that was skipped. */
  managedTasks: TaskRecord[];
}

export function planFanout(
  tasks: readonly TaskRecord[],
  config: Config,
  project: string,
  userHome: string,
  managedPath: string,
  /** The SKILL.md files of the skills named with `--skill`: their pass trains them, not fan-out. */
  namedPaths: readonly string[] = [],
): FanoutPlan {
  const roots = skillRoots(project, userHome, config.skill_roots);
  const byName = new Map<string, TaskRecord[]>();
  for (const t of tasks) {
    const hint = t.skill_hint.trim();
    if (hint === '' || hint === config.managed_skill_name) continue;
    byName.set(hint, [...(byName.get(hint) ?? []), t]);
  }
  const groups: FanoutPlan['groups'] = [];
  const grouped = new Set<TaskRecord>();
  for (const [name, members] of byName) {
    let resolution = resolveSkill(name, roots);
    if (resolution.status === 'found' && resolution.livePath === managedPath) {
      resolution = { status: 'rejected', name, reason: 'it is the managed skill' };
    } else if (resolution.status === 'found' && namedPaths.includes(resolution.livePath)) {
      resolution = { status: 'rejected', name, reason: 'it is named with --skill (trained whole there)' };
    }
    groups.push({ name, resolution, tasks: members });
    if (resolution.status === 'found') for (const t of members) grouped.add(t);
  }
  return { roots, groups, managedTasks: tasks.filter((t) => !grouped.has(t)) };
}

export interface GroupOutcome {
  report: SkillGroupReport;
  /** The files it changed: SKILL.md, and a package's references. */
  targets: StageTarget[];
  epoch: NightStepResult | null;
  note?: string;
}

/** How a skill that follows the skill format is trained whole (its package), like a named one. */
export interface PackageOptions {
  budgetTokens: number;
  inlineTokens: number;
}

/** Train every found group; a group that throws is reported as failed, the night goes on. */
export async function trainGroups(
  plan: FanoutPlan,
  project: string,
  train: (tasks: TaskRecord[], doc: string, editor?: DocEditor) => Promise<NightStepResult>,
  packages?: PackageOptions,
): Promise<GroupOutcome[]> {
  const outcomes: GroupOutcome[] = [];
  const waits: AnswerPendingError[] = [];
  for (const group of plan.groups) {
    const base = { skill_name: group.name, n_tasks: group.tasks.length };
    const r = group.resolution;
    if (r.status !== 'found') {
      outcomes.push({
        report: { ...base, ...emptyRow(), status: 'skipped', reason: `${r.status}: ${r.reason}` },
        targets: [],
        epoch: null,
      });
      continue;
    }
    try {
      const liveText = readUtf8OrNull(r.livePath);
      if (liveText === null) throw new Error(`${r.livePath} disappeared`);
      const allowOutside = !isInside(r.livePath, project);
      // A skill in the skill format is the user's own: trained whole, with its references.
      const pkg =
        packages && frontmatterProblems(liveText).length === 0
          ? readSkillPackage(r.livePath, packages.inlineTokens)
          : null;
      const doc = pkg ? joinPackage(pkg) : liveText;
      const epoch = pkg
        ? await train(group.tasks, doc, skillTextEditor({ budgetTokens: packages?.budgetTokens ?? 0 }))
        : await train(group.tasks, doc);
      const changed = epoch.accepted && epoch.skill !== doc;
      const staged = !changed
        ? { targets: [], note: null }
        : pkg
          ? packageTargets(group.name, pkg, epoch.skill, allowOutside)
          : {
              targets: [
                {
                  kind: 'skill' as const,
                  name: group.name,
                  livePath: r.livePath,
                  baseText: liveText,
                  proposedText: epoch.skill,
                  allowOutside,
                },
              ],
              note: null,
            };
      outcomes.push({
        report: {
          ...base,
          status: 'consolidated',
          reason: epoch.accepted ? '' : epoch.noEditsReason,
          live_path: r.livePath,
          accepted: epoch.accepted,
          gate_action: epoch.gateAction,
          baseline: finiteOrNull(epoch.baseline),
          candidate: finiteOrNull(epoch.candidate),
          edits: epoch.edits,
          rejected_edits: epoch.rejectedEdits,
        },
        targets: staged.targets,
        epoch,
        ...(staged.note ? { note: staged.note } : {}),
      });
    } catch (err) {
      // A handoff wait stops the whole night, not one group (and other groups queue their requests).
      if (err instanceof AnswerPendingError) {
        waits.push(err);
        continue;
      }
      outcomes.push({
        report: { ...base, ...emptyRow(), status: 'failed', reason: errorMessage(err).slice(0, 300) },
        targets: [],
        epoch: null,
      });
    }
  }
  if (waits.length > 0) throw AnswerPendingError.join(waits);
  return outcomes;
}

function emptyRow(): Omit<SkillGroupReport, 'skill_name' | 'n_tasks' | 'status' | 'reason'> {
  return {
    live_path: '',
    accepted: false,
    gate_action: '',
    baseline: null,
    candidate: null,
    edits: [],
    rejected_edits: [],
  };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
