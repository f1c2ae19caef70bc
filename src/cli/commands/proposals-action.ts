/** `proposals list|show|diff` and `reject`: review what the nights staged. */
// The command's action; its definition (options, help text) is `proposals.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import type { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../../core/errors.js';
import {
  assertProposalId,
  listProposals,
  readProposal,
  readProposalRules,
} from '../../../proposals/index.js';
import type { LearnedRule } from '../../core/rule-evidence.js';
import { rejectAction, rejectedLines } from '../proposal-actions.js';
import { cliContext, openDb, commandProject, type CliContext, type CommonFlags } from '../context.js';
import { markdownForTerminal } from '../markdown-terminal.js';
import { displayText, printJson, say, terminalText, wantsColour, write } from '../output.js';
import { ledgerOf, recoverAndSync } from '../proposal-session.js';
import type { Db } from '../../store/db.js';
import { storedReportSchema, type NightReport } from '../../night/night-report.js';

const score = (x: number | null): string => (x === null ? '—' : x.toFixed(3));
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Open the project's proposals (recovering an interrupted adoption first) and run `fn`. */
async function withProject<T>(
  flags: CommonFlags,
  fn: (ctx: CliContext, project: string, db: Db) => Promise<T>,
): Promise<T> {
  const ctx = cliContext(flags);
  const project = commandProject(ctx, flags);
  const db = openDb(ctx, flags);
  try {
    await recoverAndSync(db, project, ctx.logger);
    return await fn(ctx, project, db);
  } finally {
    db.close();
  }
}

/** A proposal's validation scores; null when its report cannot be read. */
function reportScores(report: NightReport | undefined): {
  baseline: number | null;
  candidate: number | null;
} {
  return { baseline: report?.baseline ?? null, candidate: report?.candidate ?? null };
}

function colourDiff(diff: string): string {
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return `\u001b[1m${line}\u001b[0m`;
      if (line.startsWith('@@')) return `\u001b[36m${line}\u001b[0m`;
      if (line.startsWith('+')) return `\u001b[32m${line}\u001b[0m`;
      if (line.startsWith('-')) return `\u001b[31m${line}\u001b[0m`;
      return line;
    })
    .join('\n');
}

export async function doProposalsList(_flags: CommonFlags, cmd: Command): Promise<void> {
  await withProject(cmd.optsWithGlobals(), async (ctx, project, db) => {
    const ledger = ledgerOf(db, project);
    const { proposals, skipped, foreign } = await listProposals(project, ledger);
    const rows = [];
    for (const p of proposals) {
      const details = await readProposal(project, p.id, storedReportSchema, ledger).catch(() => null);
      rows.push({ ...p, scores: reportScores(details?.report) });
    }
    if (ctx.json) {
      printJson({ project, proposals: rows, skipped, foreign });
      return;
    }
    if (rows.length === 0) say(`[sleep] no proposals in ${project}`);
    for (const p of rows) {
      const targets = p.targets
        .map(
          (t) =>
            `${t.kind}:${displayText(t.name)}${t.adopted ? '' : p.status === 'adopted' ? ' (pending)' : ''}`,
        )
        .join(', ');
      say(
        `${p.id}  night ${p.night}  ${p.status.padEnd(10)} ${score(p.scores.baseline)} -> ${score(p.scores.candidate)}  ${targets}${p.supersededBy ? `  (by ${p.supersededBy})` : ''}`,
      );
    }
    for (const s of skipped) ctx.logger.warn(`skipped ${s.dir}: ${displayText(s.reason)}`);
  });
}

export async function doProposalsShow(id: string, _flags: CommonFlags, cmd: Command): Promise<void> {
  assertProposalId(id);
  await withProject(cmd.optsWithGlobals(), async (ctx, project, db) => {
    // Shown as it was staged: `show` prints report.md and the report.json it found, whatever its version.
    const details = await readProposal(project, id, z.unknown(), ledgerOf(db, project));
    const rules = await readProposalRules(project, id, ledgerOf(db, project));
    if (ctx.json) {
      // How sure the proposal is, at the top level: its night's paired comparison (null before it existed).
      const parsed = storedReportSchema.safeParse(details.report);
      printJson({
        project,
        summary: details.summary,
        manifest: details.manifest,
        receipt: details.receipt,
        lift: parsed.success ? parsed.data.lift : null,
        rules,
        report: details.report,
      });
      return;
    }
    const s = details.summary;
    say(`[sleep] proposal ${s.id} (night ${s.night}, ${s.status}, staged ${iso(s.createdAt)})`);
    if (s.supersededBy) say(`[sleep] superseded by ${s.supersededBy}`);
    for (const t of s.targets)
      say(`   ${t.adopted ? 'adopted' : 'pending'}  ${t.kind} ${displayText(t.name)}: ${t.livePath}`);
    for (const line of ruleLines(rules)) say(line);
    say('');
    write(terminalText(markdownForTerminal(details.reportMd)));
  });
}

/** Each learned rule, numbered for `reject --rule N`, with where the user said it. */
function ruleLines(rules: readonly LearnedRule[]): string[] {
  if (rules.length === 0) return [];
  const lines = ['[sleep] learned rules (reject one with `reject ID --rule N`):'];
  for (const r of rules) {
    lines.push(`  ${r.n}. ${displayText(r.line)}`);
    for (const l of r.lessons)
      for (const e of l.evidence.slice(0, 3))
        lines.push(
          `       said in ${displayText(e.session)}, prompt ${e.turn}: ${displayText(cutLine(e.sentence))}`,
        );
  }
  return lines;
}

const cutLine = (text: string): string => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
};

export async function doProposalsDiff(id: string, _flags: CommonFlags, cmd: Command): Promise<void> {
  assertProposalId(id);
  await withProject(cmd.optsWithGlobals(), async (ctx, project, db) => {
    // The diff does not need the report: a report of an unknown shape does not hide the diff.
    const details = await readProposal(project, id, z.unknown(), ledgerOf(db, project));
    if (ctx.json) {
      printJson({ project, id, diff: details.diff });
      return;
    }
    const text = terminalText(details.diff);
    write(wantsColour(ctx.env) ? colourDiff(text) : text);
  });
}

export async function doReject(
  id: string,
  flags: CommonFlags & { reason?: string; rule?: string[] },
): Promise<void> {
  assertProposalId(id);
  const rules = (flags.rule ?? []).map((n) => {
    if (!/^[1-9]\d{0,5}$/.test(n))
      throw new InputError(`--rule takes a rule's number (1, 2, ...), not ${JSON.stringify(n)}`);
    return Number(n);
  });
  await withProject(flags, async (ctx, project, db) => {
    const result = await rejectAction({
      db,
      project,
      id,
      now: ctx.clock.now(),
      logger: ctx.logger,
      ...(flags.reason !== undefined ? { reason: flags.reason } : {}),
      rules,
    });
    if (ctx.json) {
      printJson({
        ok: true,
        proposal_id: result.id,
        rejected_at: result.record.rejectedAt,
        rules_rejected: result.rulesRejected.map((r) => ({
          n: r.n,
          line: r.line,
          lessons: r.lessons.map((l) => l.id),
        })),
      });
      return;
    }
    for (const line of rejectedLines(result)) say(line);
  });
}
