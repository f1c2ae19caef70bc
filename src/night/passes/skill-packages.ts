/**
 * The skills the user named (`--skill`, `skills:`), trained whole in place of the managed skill's
 * learned block: each package (SKILL.md and its inlined references) is one document, edited by the
 * whole-text editor under the skill's token budget. The first skill's step is the night's result; the
 * others are reported apart. Each changed file of a package is one target of the proposal, all under
 * the skill's name; a SKILL.md whose front matter an edit would break is not staged.
 */
import { addUsage, zeroUsage } from '../../core/usage.js';
import { skillBodyTokens, skillTextEditor } from '../../skill-package/text-editor.js';
import type { StageTarget } from '../../../proposals/index.js';
import { finiteOrNull, type SkillPackageReport } from '../night-report.js';
import type { NightStepResult } from '../night-step.js';
import type { NamedSkill } from '../named-skills.js';
import { packageTargets, type PackageTargets } from '../package-targets.js';
import type { NightPass, PassOutcome } from './types.js';

interface Trained {
  skill: NamedSkill;
  step: NightStepResult;
  targets: StageTarget[];
  report: SkillPackageReport;
  note: string | null;
}

function staged(skill: NamedSkill, step: NightStepResult): PackageTargets {
  if (!step.accepted || step.skill === skill.joined) return { targets: [], note: null };
  return packageTargets(skill.name, skill.pkg, step.skill, skill.allowOutside);
}

function report(skill: NamedSkill, step: NightStepResult, targets: StageTarget[], budget: number) {
  const changed = new Set(targets.map((t) => t.livePath));
  const files = [skill.pkg.skill, ...skill.pkg.references];
  return {
    skill_name: skill.name,
    live_path: skill.pkg.skill.livePath,
    n_tasks: skill.tasks.length,
    accepted: step.accepted && targets.length > 0,
    gate_action: step.gateAction,
    reason: step.accepted ? '' : step.noEditsReason,
    baseline: finiteOrNull(step.baseline),
    candidate: finiteOrNull(step.candidate),
    edits: step.edits,
    rejected_edits: step.rejectedEdits,
    changed_files: files.filter((f) => changed.has(f.livePath)).map((f) => f.relPath),
    trained_files: files.map((f) => f.relPath),
    scripts: skill.pkg.scripts,
    tokens_before: skillBodyTokens(skill.joined),
    tokens_after: skillBodyTokens(targets.length > 0 ? step.skill : skill.joined),
    token_budget: budget,
  };
}

export const skillPackagesPass: NightPass = {
  name: 'skill-packages',
  applies: (plan) => plan.config.evolve_skill && (plan.targets.packages?.skills.length ?? 0) > 0,
  async run({ plan, train }): Promise<PassOutcome> {
    const skills = plan.targets.packages?.skills ?? [];
    const budget = plan.config.skill_token_budget;
    const editor = skillTextEditor({ budgetTokens: budget });
    const trained: Trained[] = [];
    for (const skill of skills) {
      if (skill.tasks.length === 0) continue;
      const step = await train({
        target: 'skill',
        doc: skill.joined,
        other: plan.targets.memory?.liveText ?? '',
        editBudget: plan.config.edit_budget,
        tasks: skill.tasks,
        editor,
      });
      const { targets, note } = staged(skill, step);
      trained.push({ skill, step, targets, note, report: report(skill, step, targets, budget) });
    }
    const [first, ...rest] = trained;
    const apartUsage = zeroUsage();
    for (const t of rest) addUsage(apartUsage, t.step.usage);
    return {
      pass: 'skill-packages',
      joined: first ? { target: 'skill', step: first.step } : null,
      apartUsage,
      targets: trained.flatMap((t) => t.targets),
      section: { skill_packages: trained.map((t) => t.report) },
      notes: trained.flatMap((t) => (t.note ? [t.note] : [])),
    };
  },
  idleSection: (plan) => ((plan.targets.packages?.skills.length ?? 0) > 0 ? { skill_packages: [] } : {}),
};
