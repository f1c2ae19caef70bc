/** The human report staged with a proposal (report.md). */
import {
  checkText,
  LEAKED_HOLDOUT_TEXT,
  splitText,
  taskCountText,
  type LessonReport,
  type NightReport,
} from './night-report.js';
import { judgedBy } from './lesson-report.js';
import { skillPackageLines } from './render-skill-packages.js';
import { liftSentence, liftWhere } from '../lift/lift-text.js';

const score = (x: number | null): string => (x === null ? '—' : x.toFixed(3));
/** Untrusted text (rules, intents) must not break the Markdown around it. */
const escapeMd = (s: string): string => s.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');

/** A validation task by its kind's label (the `kind:` tag), with its instance id. */
function taskName(id: string, tags: readonly string[] | undefined): string {
  const kind = tags?.find((tag) => tag.startsWith('kind:'))?.slice('kind:'.length);
  return kind ? `${kind} (${id})` : id;
}

/** A lesson and its evidence, as Markdown list items. */
function lessonLines(l: LessonReport): string[] {
  const checks = l.checks.map((c) => escapeMd(checkText(c))).join('; ');
  const judged = l.checks.length > 0 ? `${judgedBy(l)}: ${checks}` : judgedBy(l);
  const retired = l.retired_by !== undefined ? ` — _retired by ${l.retired_by}_` : '';
  return [
    `- **${escapeMd(l.rule)}** (${l.id}; ${l.support} session${l.support === 1 ? '' : 's'}, kind ${escapeMd(l.kind || '—')}, judged by ${judged})${retired}`,
    ...l.evidence.map(
      (e) =>
        `  - “${escapeMd(e.sentence)}” (${escapeMd(e.session)}, prompt ${e.turn}${e.signals.length > 0 ? `; ${escapeMd(e.signals.join(', '))}` : ''})`,
    ),
  ];
}

/** The report.md of a proposal; the demo's (`demo`) names `adopt --demo`, which adopts from the demo's store. */
export function renderReportMd(r: NightReport, opts: { demo?: boolean } = {}): string {
  const lines: string[] = [
    `# skillopt-sleep — night ${r.night} report`,
    '',
    `- project: \`${r.project}\``,
    `- backend: ${r.backend}`,
    `- sessions harvested for this project: ${r.n_sessions}; replayed: ${taskCountText(r.n_tasks, r.n_clusters, r.n_recurring)} — ${splitText(r)}${r.n_unjudged > 0 ? `; ${r.n_unjudged} not replayed (no judge can score them)` : ''}${r.n_one_off > 0 ? `; ${r.n_one_off} one-offs not replayed (alone in their lesson and kind)` : ''}`,
    `- validation score (${r.gate_metric}): ${score(r.baseline)} -> ${score(r.candidate)}`,
    `- gate: **${r.gate_action}** (accepted=${String(r.accepted)})${r.gate_no_regression ? ', no task may regress' : ', a task may get worse (no-regression gate off)'}`,
    `- model calls: ${r.calls}, tokens: ${r.tokens_used}`,
  ];
  // A report stored before the tally existed has none.
  const purposes = r.requests === undefined ? '' : requestsText(r.requests);
  if (purposes !== '') lines.push(`- trainer requests by purpose: ${purposes}`);
  // Each memory document the night trained (one, or one per agent file its lessons went to).
  for (const m of r.memory_files ?? (r.memory ? [r.memory] : [])) {
    lines.push(
      `- memory document \`${m.target_path}\` (chosen by ${escapeMd(m.chosen_by)}): ${score(m.baseline)} -> ${score(m.candidate)}, **${m.gate_action}** (accepted=${String(m.accepted)})`,
    );
  }
  if (r.spend) {
    const s = r.spend;
    lines.push(
      `- spend: ${s.input_tokens} input + ${s.output_tokens} output tokens, $${s.cost_usd.toFixed(4)}; ${s.retries} retries, ${s.cache_hits} cache hits, ${s.redactions} secrets redacted before sending, ${s.invalid_replies} invalid replies`,
    );
  }
  if (r.stopped === 'budget')
    lines.push(`- **stopped by the budget** (${r.spend?.stopped_by ?? ''}); nothing was staged`);
  if (r.test)
    lines.push(
      `- held-out test score (never seen by reflection or the gate): ${score(r.test.before)} -> ${score(r.test.after)}`,
    );
  // A report staged before the test was scored before and after has only its final score.
  else if (r.test_score !== null)
    lines.push(`- held-out test score (never seen by the gate): ${score(r.test_score)}`);
  lines.push(...liftLines(r));
  if (r.no_edits_reason) lines.push(`- no edits: ${r.no_edits_reason}`);
  if (r.holdout_leaked) {
    lines.push('', `> **Not validated.** ${escapeMd(LEAKED_HOLDOUT_TEXT)}.`);
  }
  lines.push(...regressionLines(r));
  if (r.edits.length > 0) {
    lines.push('', '## Accepted edits', '');
    for (const e of r.edits)
      lines.push(`- [${e.target}/${e.op}] ${escapeMd(e.content)}`, `  _why: ${escapeMd(e.rationale)}_`);
  }
  if (r.rejected_edits.length > 0) {
    lines.push('', '## Rejected by the gate (remembered; not proposed again if they hurt)', '');
    for (const e of r.rejected_edits) {
      lines.push(
        `- [${e.target}/${e.op}] ${escapeMd(e.content)} — ${escapeMd(e.reason)} (Δ ${e.delta.toFixed(3)})`,
      );
      if (e.rationale) lines.push(`  _proposed because: ${escapeMd(e.rationale)}_`);
    }
  }
  if (r.pending_edits.length > 0) {
    lines.push('', "## Pending (no gain yet, no harm; re-tested with the next night's edits)", '');
    for (const e of r.pending_edits) lines.push(`- [${e.target}/${e.op}] ${escapeMd(e.content)}`);
  }
  if (r.unmatched_edits.length > 0) {
    lines.push('', '## Proposed but changed nothing', '');
    for (const e of r.unmatched_edits) lines.push(`- [${e.target}/${e.op}] ${escapeMd(e.content)}`);
  }
  for (const trial of r.gate_trials) {
    lines.push(
      '',
      `### Validation tasks: candidate ${trial.accepted ? 'accepted' : 'rejected'} (${score(trial.baseline_score)} → ${score(trial.candidate_score)})`,
      '',
    );
    lines.push('| Task | Baseline | Candidate | Change |', '| --- | --- | --- | --- |');
    for (const d of trial.task_deltas) {
      lines.push(
        `| ${escapeMd(taskName(d.task_id, d.tags))} | ${score(d.baseline_score)} | ${score(d.candidate_score)} | ${d.status} |`,
      );
    }
  }
  if (r.skill_groups && r.skill_groups.length > 0) {
    lines.push(
      '',
      '## Per-skill groups',
      '',
      '| Skill | Decision | Gate | Tasks | Validation | Edits |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const g of r.skill_groups) {
      const decision =
        g.status === 'consolidated'
          ? g.accepted
            ? 'staged'
            : 'no change'
          : `${g.status}: ${escapeMd(g.reason)}`;
      lines.push(
        `| ${escapeMd(g.skill_name)} | ${decision} | ${g.gate_action || '—'} | ${g.n_tasks} | ${score(g.baseline)} → ${score(g.candidate)} | ${g.edits.length} |`,
      );
    }
    for (const g of r.skill_groups) {
      for (const e of g.edits) {
        lines.push(
          `- ${escapeMd(g.skill_name)}: [${e.op}] ${escapeMd(e.content)} — _why: ${escapeMd(e.rationale)}_`,
        );
      }
    }
  }
  lines.push(...skillPackageLines(r));
  if (r.lessons && r.lessons.length > 0) {
    lines.push('', '## Lessons: what you taught the agent', '');
    for (const lesson of r.lessons) lines.push(...lessonLines(lesson));
  }
  const explained = [...r.recurring_tasks, ...r.one_off_tasks].filter(
    (t) => t.checks.length > 0 || t.criteria.length > 0 || t.corrections.length > 0,
  );
  if (explained.length > 0) {
    lines.push('', '## Mined tasks and the corrections behind their rules', '');
    for (const t of explained) {
      lines.push(
        `- **${escapeMd(t.label)}** (×${t.occurrences}), e.g. “${escapeMd(t.intent.slice(0, 120))}”`,
      );
      for (const c of t.checks) {
        lines.push(
          `  - check \`${c.op}\` ${escapeMd(String(c.arg ?? ''))} — “${escapeMd(c.sentence)}” (${escapeMd(c.session)}${c.by === 'model' ? ', read by the model' : ''})`,
        );
      }
      for (const criterion of t.criteria) lines.push(`  - rubric criterion: “${escapeMd(criterion)}”`);
      const unused = t.corrections.filter((c) => c.result === 'none');
      for (const c of unused) {
        lines.push(
          `  - no rule from “${escapeMd(c.sentence)}” (${escapeMd(c.session)}): ${escapeMd(c.reason)}`,
        );
      }
    }
  }
  if (r.llm_miner) {
    const m = r.llm_miner;
    const dropped = Object.entries(m.dropped).filter(([, n]) => n > 0);
    lines.push(
      '',
      '## Tasks the model mined',
      '',
      `${m.accepted} checkable statements kept of ${m.proposed} proposed for ${m.clusters} recurring tasks (${m.calls} calls).`,
    );
    if (dropped.length > 0) lines.push(`Dropped: ${dropped.map(([why, n]) => `${why} ${n}`).join(', ')}.`);
  }
  if (r.llm_labels && r.llm_rules) {
    const l = r.llm_labels;
    const q = r.llm_rules;
    lines.push(
      '',
      '## Kinds and rules the model read',
      '',
      `Sessions labelled: ${l.labelled} tonight, ${l.reused} from earlier nights${l.skipped_budget > 0 ? `, ${l.skipped_budget} left for the budget` : ''}; ${l.relabelled} kinds renamed, ${l.merged} merged.`,
      `Corrections read: ${q.sent} (${q.checks_validated} checks validated, ${q.checks_dropped} dropped, ${q.rubrics} rubric criteria)${q.skipped_budget + q.skipped_limit > 0 ? `; ${q.skipped_budget + q.skipped_limit} not sent` : ''}.`,
    );
  }
  if (r.learned_rules.length > 0) {
    lines.push('', '## Learned rules after this night', '');
    for (const rule of r.learned_rules) lines.push(`- ${escapeMd(rule)}`);
  }
  if (r.notes.length > 0) {
    lines.push('', '## Notes', '');
    for (const n of r.notes) lines.push(`- ${escapeMd(n)}`);
  }
  lines.push(
    '',
    `Review \`proposal.diff\`, then run \`skillopt-sleep adopt ${opts.demo === true ? '--demo' : `--project ${JSON.stringify(r.project)}`}\`.`,
    '',
  );
  return lines.join('\n');
}

/** How sure the night is of its change: the paired comparison in words, its counts and notes. */
function liftLines(r: NightReport): string[] {
  const l = r.lift;
  if (!l) return [];
  const unchanged = l.n - l.improved.length - l.regressed.length;
  return [
    `- how sure, ${liftWhere(l)}: **${liftSentence(l)}**; better on ${l.improved.length}, worse on ${l.regressed.length}, unchanged on ${unchanged} (bootstrap seed ${l.seed})`,
    ...l.notes.map((n) => `  - ${escapeMd(n)}`),
  ];
}

/** Every task the candidate made worse, with what it answered before and after. */
function regressionLines(r: NightReport): string[] {
  // A report rendered from an object older than the list has none.
  const regressed = (r.regressed_tasks as NightReport['regressed_tasks'] | undefined) ?? [];
  if (regressed.length === 0) return [];
  const whose = r.accepted
    ? 'The proposed candidate makes these tasks worse'
    : 'The candidate the gate decided on made these tasks worse';
  const lines = ['', '## Tasks that got worse', '', `${whose} (answers clipped):`, ''];
  for (const t of regressed) {
    const where = t.split === 'test' ? 'held-out test' : 'validation';
    lines.push(
      `- **${escapeMd(taskName(t.task_id, t.tags))}** (${where}): ${score(t.before)} → ${score(t.after)}`,
      `  - before: “${escapeMd(t.answer_before)}”`,
      `  - after: “${escapeMd(t.answer_after)}”`,
    );
  }
  return lines;
}

/** "baseline_val 23 attempts, 4 verdicts; prune_trial 6 attempts (12 reused); reflect 1". */
export function requestsText(r: NightReport['requests']): string {
  const parts = Object.entries(r.replays).map(([phase, t]) => {
    const asked = [`${t.attempts} attempts`, ...(t.judges > 0 ? [`${t.judges} verdicts`] : [])].join(', ');
    const reused = t.reused_answers + t.reused_verdicts;
    return `${phase} ${asked}${reused > 0 ? ` (${reused} reused)` : ''}`;
  });
  if (r.reflect > 0) parts.push(`reflect ${r.reflect}`);
  return parts.join('; ');
}
