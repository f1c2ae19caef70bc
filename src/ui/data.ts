/**
 * What the dashboard's pages show, read from the store, the schedule registry, the proposal folders
 * and `train` output folders. Read-only: nothing here writes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  listProposals,
  readProposal,
  readProposalRules,
  type ProposalSummary,
} from '../../proposals/index.js';
import type { LearnedRule } from '../core/rule-evidence.js';
import { storedReportSchema, type NightReport } from '../night/night-report.js';
import { nextRun, parseCron } from '../scheduler/cron-expr.js';
import { readRegistry, type ScheduleEntry } from '../scheduler/registry.js';
import {
  allNights,
  harvestBySource,
  lastHarvestAt,
  nightProjects,
  sessionStarts,
  type SourceHarvest,
} from '../store/dashboard-repo.js';
import type { Db } from '../store/db.js';
import { proposalLedger } from '../store/proposal-ledger-repo.js';
import { redactionTotals, type RedactionCounts } from '../store/harvest-runs-repo.js';
import type { NightRow } from '../store/nights-repo.js';
import { loadSkillSizes, type SkillSizePoint } from './skill-sizes.js';

/** One night as the chart and the table show it. */
export interface NightPoint {
  id: number;
  started_at: number;
  status: NightRow['status'];
  baseline: number | null;
  candidate: number | null;
  gate_action: string;
  cost_usd: number;
  calls: number;
  tokens: number;
  cache_hits: number;
  stopped: string;
  proposal_id: string;
  error: string;
}

export interface ProjectNights {
  project: string;
  /** Oldest first. */
  nights: NightPoint[];
  /** The project's proposals, newest first: each night's proposal is shown with its status. */
  proposals: ProposalSummary[];
  /** Why the proposals could not be listed (the folder moved, a broken proposals/), or ''. */
  problem: string;
  /** Your own skills' size night by night (from the proposals' reports), oldest first. */
  skillSizes?: SkillSizePoint[];
}

const toPoint = (n: NightRow): NightPoint => ({
  id: n.id,
  started_at: n.started_at,
  status: n.status,
  baseline: n.baseline,
  candidate: n.candidate,
  gate_action: n.gate_action,
  cost_usd: n.cost_usd,
  calls: n.calls,
  tokens: n.tokens,
  cache_hits: n.cache_hits,
  stopped: n.stopped,
  proposal_id: n.proposal_id,
  error: n.error,
});

export async function loadProjectNights(db: Db, dir: string): Promise<ProjectNights> {
  const nights = allNights(db, dir).map(toPoint);
  try {
    const ledger = proposalLedger(db, dir);
    const proposals = (await listProposals(dir, ledger)).proposals;
    return {
      project: dir,
      nights,
      proposals,
      problem: '',
      skillSizes: await loadSkillSizes(dir, proposals, ledger),
    };
  } catch (err) {
    return { project: dir, nights, proposals: [], problem: err instanceof Error ? err.message : String(err) };
  }
}

export interface ProjectOverview {
  project: string;
  last_night: NightPoint | null;
  /** The newest proposal still waiting for a decision. */
  staged: ProposalSummary | null;
  schedule: { cron: string; via: string; next_run: number | null } | null;
  /** Why the proposals could not be listed (the folder moved, a broken proposals/), or ''. */
  problem: string;
  /** Your own skills' size night by night (from the proposals' reports), oldest first. */
  skillSizes?: SkillSizePoint[];
}

/** Every project the store's nights or the schedule registry know (the only `dir` values pages accept). */
export function knownProjects(db: Db, home: string): string[] {
  return [...new Set([...nightProjects(db), ...safeRegistry(home).map((e) => e.project)])].sort();
}

function safeRegistry(home: string): ScheduleEntry[] {
  try {
    return readRegistry(home);
  } catch {
    return []; // a broken registry is `schedule`'s to report; the dashboard shows the nights still
  }
}

function nextRunOf(cron: string, now: number): number | null {
  try {
    return nextRun(parseCron(cron), now);
  } catch {
    return null;
  }
}

export async function loadProjects(db: Db, home: string, now: number): Promise<ProjectOverview[]> {
  const registry = safeRegistry(home);
  const out: ProjectOverview[] = [];
  for (const project of knownProjects(db, home)) {
    const nights = allNights(db, project);
    const last = nights.at(-1);
    const entry = registry.find((e) => e.project === project);
    let staged: ProposalSummary | null = null;
    let problem = '';
    try {
      staged =
        (await listProposals(project, proposalLedger(db, project))).proposals.find(
          (p) => p.status === 'staged',
        ) ?? null;
    } catch (err) {
      problem = err instanceof Error ? err.message : String(err);
    }
    out.push({
      project,
      last_night: last ? toPoint(last) : null,
      staged,
      schedule: entry ? { cron: entry.cron, via: entry.via, next_run: nextRunOf(entry.cron, now) } : null,
      problem,
    });
  }
  return out;
}

/** A rule's or correction's origin: the user's sentence, the session it was said in, when. */
export interface Provenance {
  task_label: string;
  kind: 'check' | 'rubric' | 'correction';
  /** The check (`op arg`), or what became of a correction. */
  detail: string;
  sentence: string;
  session: string;
  session_started_at: number | null;
}

export interface ProposalView {
  project: string;
  summary: ProposalSummary;
  diff: string;
  /** null when report.json is not of a shape this version reads (the diff is still shown). */
  report: NightReport | null;
  provenance: Provenance[];
  /** Its learned lines as `rules.json` numbers them (what Reject may name one by one); [] without one. */
  rules: LearnedRule[];
}

/** A proposal with its report and where its rules came from; `db` knows it and dates the sessions. */
export async function loadProposalView(dir: string, id: string, db: Db): Promise<ProposalView> {
  const details = await readProposal(dir, id, z.unknown(), proposalLedger(db, dir));
  const parsed = storedReportSchema.safeParse(details.report);
  const report = parsed.success ? parsed.data : null;
  const provenance = report ? provenanceOf(report) : [];
  const starts = sessionStarts(
    db,
    provenance.map((p) => p.session),
  );
  for (const p of provenance) p.session_started_at = starts.get(p.session) ?? null;
  // A rules.json that fails its pinned hash lists nothing here; Reject's own read says why.
  const rules = await readProposalRules(dir, id, proposalLedger(db, dir)).catch(() => []);
  return { project: dir, summary: details.summary, diff: details.diff, report, provenance, rules };
}

function provenanceOf(r: NightReport): Provenance[] {
  const out: Provenance[] = [];
  for (const t of [...r.recurring_tasks, ...r.one_off_tasks]) {
    for (const c of t.checks) {
      const arg = c.arg === undefined ? '' : ` ${String(c.arg)}`;
      out.push({
        task_label: t.label,
        kind: 'check',
        detail: `${c.op}${arg}${c.by === 'model' ? ' (read by the model)' : ''}`,
        sentence: c.sentence,
        session: c.session,
        session_started_at: null,
      });
    }
    for (const c of t.corrections) {
      if (c.result === 'checks') continue; // shown as its checks above
      out.push({
        task_label: t.label,
        kind: c.result === 'rubric' ? 'rubric' : 'correction',
        detail: c.result === 'rubric' ? 'kept as a rubric criterion' : `no rule: ${c.reason}`,
        sentence: c.sentence,
        session: c.session,
        session_started_at: null,
      });
    }
  }
  return out;
}

/** One `history.jsonl` line as the train chart shows it. */
export interface TrainPoint {
  step: number;
  epoch: number;
  kind: string;
  val_before: number | null;
  val_after: number | null;
  gate: string;
  accepted: boolean;
}

export interface TrainHistory {
  dir: string;
  points: TrainPoint[];
  /** Lines that were not a step record (a step killed while writing, a foreign file). */
  bad_lines: number;
}

const num = z.number().nullable().catch(null);
const trainLineSchema = z.object({
  step: z.number(),
  epoch: z.number().catch(0),
  kind: z.string().catch('step'),
  val_before: num,
  val_after: num,
  gate: z.string().catch(''),
  accepted: z.boolean().catch(false),
});

export const HISTORY_FILE = 'history.jsonl';

export async function loadTrainHistory(dir: string): Promise<TrainHistory> {
  const text = await readFile(path.join(dir, HISTORY_FILE), 'utf8');
  const points: TrainPoint[] = [];
  let bad = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      bad++;
      continue;
    }
    const p = trainLineSchema.safeParse(value);
    if (p.success) points.push(p.data);
    else bad++;
  }
  return { dir, points, bad_lines: bad };
}

export interface HarvestView {
  sources: SourceHarvest[];
  redactions: Record<string, RedactionCounts>;
  last_harvest_at: number | null;
}

export function loadHarvest(db: Db): HarvestView {
  return {
    sources: harvestBySource(db),
    redactions: redactionTotals(db),
    last_harvest_at: lastHarvestAt(db),
  };
}
