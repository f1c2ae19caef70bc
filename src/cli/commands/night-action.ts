/** `run` and `dry-run`: one night for the project. */
// The command's action; its definition (options, help text) is `night.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import type { Command } from 'commander';
import { createBackend, isOfflineConfig, usesHandoff } from '../../backends/factory.js';
import { batchWaitingNight, openBatchNight } from '../../night/batch-night.js';
import { batchNightWanted, renderBatch } from '../night-batch.js';
import { HandoffQueue } from '../../backends/handoff/handoff-queue.js';
import type { Config } from '../../config/schema.js';
import { UsageError } from '../../core/errors.js';
import { handoffNight } from '../../night/handoff-night.js';
import type { WaitingNight } from '../../night/waiting-night.js';
import type { Backend } from '../../backends/types.js';
import type { Logger } from '../../core/logger.js';
import { dbFile } from '../../config/paths.js';
import { demoConfig, demoStoreFile, prepareDemo } from '../../night/demo.js';
import {
  LEAKED_HOLDOUT_TEXT,
  isWaitingReport,
  splitText,
  taskCountText,
  type NightReport,
  type NightResult,
  type WaitingReport,
} from '../../night/night-report.js';
import type { Db } from '../../store/db.js';
import { runNight } from '../../night/run-night.js';
import { autoAdopt, type AutoAdoptOutcome } from '../../night/auto-adopt.js';
import {
  checkGoneProject,
  cliContext,
  folderHere,
  openNightStore,
  projectArg,
  resolveStoredProject,
  type CommonFlags,
} from '../context.js';
import { projectConfig } from '../project-config.js';
import { displayText, printJson, say } from '../output.js';
import { cliPath } from '../io.js';
import { ledgerOf, recoverAndSync } from '../proposal-session.js';
import type { ProposalLedger } from '../../core/proposal-ledger.js';
import { typedNightArgs } from '../options.js';
import { liftLines, regressedLines } from '../lift-lines.js';
import { shellQuote } from '../../scheduler/shell-quote.js';
import { recordingDeps } from '../recording-flags.js';
import { checkRunFlags, type RunFlags } from '../run-options.js';
import { explainNight, sendlessBackend } from '../../night/explain-night.js';
import { renderExplanation, renderSendsSummary } from '../sends-text.js';
import { nightBranch, planNightBranch, renderNightBranch } from '../night-branch.js';
import type { BranchPlan } from '../../../proposals/git-branch.js';

/** The tasks-file options as typed, for the `run` a dry-run suggests (paths resolved, so it runs anywhere). */
const typedTaskArgs = (flags: NightFlags): string[] => [
  ...(flags.tasksFile ? ['--tasks-file', cliPath(flags.tasksFile)] : []),
  ...(flags.tasksFrom ?? []).flatMap((d) => ['--tasks-from', cliPath(d)]),
];

/** What a night's status line shows until its first progress message: its harvest runs first. */
const NIGHT_START = 'reading transcripts';

/** The request's tasks from files, when the flags name them (paths as typed, from the working folder). */
const fileTasks = (flags: NightFlags) => ({
  ...(flags.tasksFile ? { tasksFile: cliPath(flags.tasksFile) } : {}),
  ...(flags.tasksFrom ? { tasksFrom: flags.tasksFrom.map((d) => cliPath(d)) } : {}),
});

export interface NightFlags extends CommonFlags, RunFlags {
  yes?: boolean;
}

/** The command that lists a planned night's texts (the plan points to it); the demo's names `--demo`. */
const explainCommand = (r: NightReport, demo: boolean): string =>
  `skillopt-sleep run --explain-sends ${projectArg(r.project, demo)}${r.tasks_file ? ` --tasks-file ${JSON.stringify(r.tasks_file)}` : ''}${(r.tasks_from ?? []).map((d) => ` --tasks-from ${JSON.stringify(d)}`).join('')}`;

const score = (x: number | null): string => (x === null ? '—' : x.toFixed(3));
const limit = (x: number | null, unit = ''): string => (x === null ? 'no limit' : `${unit}${x}`);

function renderPlan(r: NightReport, demo: boolean): void {
  const p = r.plan;
  if (!p) return;
  say(
    `[sleep] plan (${r.backend}): ${p.tasks} tasks -> about ${p.calls_min} to ${p.calls_max} model requests`,
  );
  say(
    `[sleep] budget ceiling: max_calls ${limit(p.limits.max_calls)}, max_tokens ${limit(p.limits.max_tokens)}, max_cost_usd ${limit(p.limits.max_cost_usd, '$')}`,
  );
  if (p.free_roles.length > 0)
    say(
      `[sleep] free: the ${p.free_roles.join(' and ')} ${p.free_roles.length > 1 ? 'models run' : 'model runs'} on a server on this machine (base_url on loopback) without a price, so ${p.free_roles.length > 1 ? 'they cost' : 'it costs'} $0`,
    );
  if (r.sends) renderSendsSummary(r.sends, explainCommand(r, demo));
  for (const n of r.notes) say(`[sleep] note: ${displayText(n)}`);
  say('[sleep] nothing was sent. Add --yes to spend (or set "confirm_spend": false in the config).');
}

function renderSpend(r: NightReport): void {
  const s = r.spend;
  if (!s) return;
  say(
    `[sleep] spend: ${s.calls} requests (${s.retries} retries), ${s.input_tokens} in + ${s.output_tokens} out tokens, $${s.cost_usd.toFixed(4)}${r.batch ? ` at batch prices (${Math.round(r.batch.price_factor * 100)}% of interactive)` : ''}; ${s.cache_hits} cache hits; ${s.redactions} secrets redacted${s.invalid_replies ? `; ${s.invalid_replies} invalid replies` : ''}`,
  );
  if (r.stopped === 'budget') say(`[sleep] stopped by the budget (${s.stopped_by}); nothing was staged.`);
}

function renderAutoAdopt(a: AutoAdoptOutcome): void {
  if (a.adopted) {
    say(`[sleep] auto-adopted ${a.proposal_id}`);
    for (const p of a.updated_paths) say(`   -> ${p}`);
  } else {
    say(`[sleep] auto-adopt refused, the proposal stays staged: ${displayText(a.reason)}`);
  }
}

/** The end of a dry-run: what the same `run` would stage or keep, with the command that does it. */
function whatRunWouldDo(r: NightReport, demo: boolean, again: readonly string[]): string {
  // The options the dry-run was given: run without them, the night would be another one.
  const typed = again.map((word) => ` ${shellQuote(word)}`).join('');
  const run = demo
    ? `\`skillopt-sleep run --demo${typed}\``
    : `\`skillopt-sleep run --project ${shellQuote(r.project)}${typed}\``;
  const staged = r.stopped === '' && (r.accepted || (r.skill_groups ?? []).some((g) => g.accepted));
  if (staged) return `${run} stages this as a proposal`;
  const pending = r.pending_edits.length;
  const keeps =
    pending > 0
      ? `, and keeps the ${pending} tied edit${pending === 1 ? '' : 's'} to re-test next night`
      : '';
  const why =
    r.n_tasks === 0
      ? 'there is no task'
      : r.stopped === 'budget'
        ? 'the budget ran out before the gate decided'
        : 'the gate accepted no edit';
  return `${run} would stage nothing (${why})${keeps}`;
}

/** What an invocation that stops to wait for answers says, and how to go on. */
function renderWaiting(r: WaitingReport, demo: boolean): void {
  const w = r.waiting;
  const purposes = Object.entries(w.open_by_purpose)
    .map(([purpose, n]) => `${n} ${purpose}`)
    .join(', ');
  const where = w.phases.length > 0 ? ` (${w.phases.join(', ')})` : '';
  if (r.batch) {
    renderBatch(r, demo);
    if (w.open > 0) say(`[sleep] the batches answer ${purposes}${where}`);
    return;
  }
  const project = JSON.stringify(r.project);
  say(
    `[sleep] waiting for answers${where}: ${w.open} handoff request${w.open === 1 ? '' : 's'} open (${purposes}; ${w.requests} asked so far); nothing was staged yet`,
  );
  say(`[sleep] read the next one: skillopt-sleep handoff next --project ${project}`);
  say(`[sleep] answer it: skillopt-sleep handoff answer ID --project ${project} --file REPLY.txt`);
  // The demo's night goes on with its own store and transcripts: `--demo`, not its folder.
  say(`[sleep] then go on: skillopt-sleep run --backend handoff ${projectArg(r.project, demo)}`);
}

function renderHuman(r: NightReport, autoAdopted = false, demo = false, again: readonly string[] = []): void {
  if (r.stopped === 'plan') {
    renderPlan(r, demo);
    return;
  }
  if (r.stopped === 'batch_failed') {
    renderBatch(r, demo);
    return;
  }
  const split = splitText(r);
  say(
    `[sleep] night ${r.night}${r.mode === 'dry-run' ? ' (dry-run)' : ''}: ${r.n_sessions} sessions -> ${taskCountText(r.n_tasks, r.n_clusters, r.n_recurring)}; ${split}`,
  );
  say(
    `[sleep] validation ${score(r.baseline)} -> ${score(r.candidate)} => ${r.gate_action} (accepted=${String(r.accepted)})`,
  );
  if (r.holdout_leaked) say(`[sleep] holdout leaked: ${LEAKED_HOLDOUT_TEXT}`);
  for (const e of r.edits) say(`   + [${e.target}/${e.op}] ${displayText(e.content)}`);
  if (r.rejected_edits.length > 0) {
    say('[sleep] rejected by gate:');
    for (const e of r.rejected_edits)
      say(`   - [${e.target}/${e.op}] ${displayText(e.content)} (${displayText(e.reason)})`);
  }
  for (const e of r.pending_edits) {
    // A dry-run records nothing: say what a run would keep rather than promise a re-test.
    const kept = r.mode === 'dry-run' ? 'a run would keep it to re-test next night' : 're-tested next night';
    say(`[sleep] pending (tied; ${kept}): ${displayText(e.content)}`);
  }
  if (r.no_edits_reason) say(`[sleep] no edits: ${r.no_edits_reason}`);
  if (r.test)
    say(
      `[sleep] held-out test (never seen by reflection or the gate): ${score(r.test.before)} -> ${score(r.test.after)}`,
    );
  for (const line of [...(r.lift ? liftLines(r.lift) : []), ...regressedLines(r.regressed_tasks)]) say(line);
  for (const n of r.notes) say(`[sleep] note: ${displayText(n)}`);
  if (r.learned_rules.length > 0 && r.accepted) {
    say('[sleep] learned rules:');
    for (const rule of r.learned_rules) say(`   - ${displayText(rule)}`);
  }
  renderSpend(r);
  if (r.handoff?.recording) say(`[sleep] handoff: the night's exchanges are saved as ${r.handoff.recording}`);
  if (r.mode === 'dry-run') {
    say(`[sleep] dry-run: nothing was written into the project; ${whatRunWouldDo(r, demo, again)}.`);
  } else if (r.staging_dir) {
    say(`[sleep] staged: ${r.staging_dir}`);
    if (!autoAdopted) say(`[sleep] review it, then: skillopt-sleep adopt ${projectArg(r.project, demo)}`);
  }
}

/**
 * A handoff night: its queue, and the night (whose saved config it goes on with, so the budget and
 * gate stay those the night started with). Null for other backends and with --replay.
 */
function handoffNightOf(
  name: 'run' | 'dry-run',
  flags: NightFlags,
  at: { home: string; project: string; config: Config; logger: Logger },
): { queue: HandoffQueue; night: WaitingNight } | null {
  if (!usesHandoff(at.config) || flags.replay) return null;
  if (name === 'dry-run')
    throw new UsageError(
      'the handoff backend stops a night to wait for answers and resumes it on the next run, which a dry-run cannot: use `skillopt-sleep run --backend handoff`',
    );
  const queue = new HandoffQueue(at.home, at.project);
  const night = handoffNight(queue);
  if (night.state)
    at.logger.progress(
      `handoff: resuming the night started ${new Date(night.state.started_at).toISOString()} (${queue.open().length} requests open)`,
    );
  return { queue, night };
}

const BUDGET_FLAGS = { maxCalls: '--max-calls', maxTokens: '--max-tokens', maxCostUsd: '--max-cost-usd' };

/** A backend without a spend meter (the mock) limits nothing: say so rather than ignore the flags. */
function warnUnmeteredBudget(command: Command, backend: Backend, logger: Logger): void {
  if (backend.spendSummary) return;
  const typed = Object.entries(BUDGET_FLAGS)
    .filter(([attr]) => command.getOptionValueSource(attr) === 'cli')
    .map(([, flag]) => flag);
  if (typed.length === 0) return;
  logger.warn(
    `the ${backend.name} backend is free and offline: ${typed.join(', ')} ${typed.length === 1 ? 'does' : 'do'} not apply to it (its calls are counted, never limited)`,
  );
}

/**
 * `run --explain-sends`: harvest and mine as a night does, then list what its requests would send.
 * The backend is a stand-in that cannot send: no model request, no handoff queue, no recording.
 */
async function explainSendsAction(flags: NightFlags, command: Command): Promise<void> {
  const ctx = cliContext(flags, NIGHT_START);
  const demo = flags.demo ? prepareDemo(ctx.home, false) : null;
  try {
    // A folder that moved: what its night would send from the sessions the store holds for it.
    const project = demo ? demo.project : resolveStoredProject(flags.project);
    const projectGone = !folderHere(project);
    const loaded = projectConfig(ctx, project, command).config;
    const config = demo ? demoConfig(loaded) : loaded;
    const db = openNightStore(ctx, demo ? ':memory:' : dbFile(ctx.home));
    try {
      if (projectGone) checkGoneProject(db, project, ctx.logger);
      const explanation = await explainNight(
        {
          project,
          config,
          mode: 'run',
          planOnly: true,
          ...(projectGone ? { projectGone } : {}),
          ...fileTasks(flags),
          ...(demo
            ? {
                ignoreLookback: true,
                harvestCtx: demo.harvestCtx,
                mapCwd: demo.mapCwd,
                idSpace: demo.idSpace,
              }
            : {}),
        },
        {
          home: ctx.home,
          userHome: ctx.userHome,
          env: ctx.env,
          clock: ctx.clock,
          db,
          backend: sendlessBackend(config),
          logger: ctx.logger,
        },
      );
      if (ctx.json) printJson(explanation);
      else renderExplanation(explanation);
    } finally {
      db.close();
    }
  } finally {
    demo?.cleanup();
  }
}

/** Adopt (auto_adopt) and branch (--branch) what the night staged, then say what it did or waits for. */
async function sayNight(
  result: NightResult,
  at: {
    db: Db;
    config: Config;
    now: number;
    json: boolean;
    branchPlan: BranchPlan | null;
    demo: boolean;
    warn: (line: string) => void;
    ledger: ProposalLedger;
    /** The night's options as typed, for the `run` a dry-run suggests. */
    again: readonly string[];
  },
): Promise<void> {
  // A night that waits, or whose batches failed, has nothing to adopt yet.
  const adoptable = !isWaitingReport(result) && result.stopped !== 'batch_failed' ? result : null;
  const adopted =
    at.config.auto_adopt && adoptable
      ? await autoAdopt(at.db, adoptable, at.now, at.config.adopt_commit)
      : null;
  if (adopted && !adopted.adopted) at.warn(`auto-adopt refused: ${adopted.reason}`);
  const branch = at.branchPlan ? await nightBranch(at.branchPlan, result, at.ledger) : null;
  if (at.json) {
    printJson({ ...result, ...(adopted ? { auto_adopt: adopted } : {}), ...(branch ? { branch } : {}) });
    return;
  }
  if (isWaitingReport(result)) renderWaiting(result, at.demo);
  else renderHuman(result, adopted?.adopted === true, at.demo, at.again);
  if (adopted) renderAutoAdopt(adopted);
  if (branch) renderNightBranch(branch);
}

export async function doNight(name: 'run' | 'dry-run', flags: NightFlags, command: Command): Promise<void> {
  checkRunFlags(flags);
  if (name === 'run' && flags.explainSends) {
    await explainSendsAction(flags, command);
    return;
  }
  const ctx = cliContext(flags, NIGHT_START);
  const demo = flags.demo ? prepareDemo(ctx.home, name === 'run') : null;
  try {
    // A folder that moved may still have stored sessions: the night mines them, then refuses to train.
    const project = demo ? demo.project : resolveStoredProject(flags.project);
    const projectGone = !folderHere(project);
    const loaded = projectConfig(ctx, project, command).config;
    const live = demo ? demoConfig(loaded) : loaded;
    const handoff = handoffNightOf(name, flags, {
      home: ctx.home,
      project,
      config: live,
      logger: ctx.logger,
    });
    const typedBatch = command.getOptionValueSource('batch') === 'cli';
    // A handoff night has no batch engine: a typed --batch is refused there too.
    const batchWanted =
      handoff && !typedBatch
        ? null
        : batchNightWanted(name, flags, { home: ctx.home, project, config: live, typed: typedBatch });
    const config = handoff?.night.state?.config ?? batchWanted?.state?.config ?? live;
    if (typedBatch && isOfflineConfig(config))
      ctx.logger.warn(
        '--batch: the mock backend answers at once and bills nothing, so this night runs as usual',
      );
    // Refused before the night spends: not a repository, no commit, a bad or taken branch name.
    const branchPlan =
      flags.branch !== undefined ? await planNightBranch(project, flags.branch, ctx.env) : null;
    // The demo keeps its own store (a throwaway one for dry-run): nothing is shared with real nights.
    const db = openNightStore(
      ctx,
      demo ? (name === 'dry-run' ? ':memory:' : demoStoreFile(ctx.home)) : dbFile(ctx.home),
    );
    try {
      if (projectGone) checkGoneProject(db, project, ctx.logger);
      // The night reads the live skill: an adoption killed midway is finished or undone first.
      else if (name === 'run') await recoverAndSync(db, project, ctx.logger);
      const planOnly =
        name === 'dry-run' && !isOfflineConfig(config) && config.confirm_spend && flags.yes !== true;
      const batch = batchWanted ? openBatchNight(ctx.home, db, project, () => ctx.clock.now()) : null;
      const waiting = handoff?.night ?? (batch ? batchWaitingNight(batch) : null);
      if (batch?.state)
        ctx.logger.progress(`batch: resuming the night started ${new Date(batch.started).toISOString()}`);
      const recording = recordingDeps(flags, config, {
        home: ctx.home,
        project,
        now: ctx.clock.now(),
        logger: ctx.logger,
      });
      const deps = {
        env: ctx.env,
        clock: ctx.clock,
        logger: ctx.logger,
        db,
        planOnly,
        ...recording,
        ...(handoff ? { handoff: handoff.queue } : {}),
        ...(batch ? { batch: batch.store } : {}),
      };
      const backend = createBackend(config, deps);
      warnUnmeteredBudget(command, backend, ctx.logger);
      const result = await runNight(
        {
          project,
          config,
          mode: name,
          planOnly,
          ...(projectGone ? { projectGone } : {}),
          ...(waiting ? { waiting } : {}),
          ...fileTasks(flags),
          ...(demo
            ? {
                demo: true,
                ignoreLookback: true,
                harvestCtx: demo.harvestCtx,
                mapCwd: demo.mapCwd,
                idSpace: demo.idSpace,
              }
            : {}),
        },
        {
          home: ctx.home,
          userHome: ctx.userHome,
          env: ctx.env,
          clock: ctx.clock,
          db,
          backend,
          logger: ctx.logger,
        },
      );
      await sayNight(result, {
        db,
        config,
        now: ctx.clock.now(),
        json: ctx.json,
        branchPlan,
        demo: demo !== null,
        warn: (line) => ctx.logger.warn(line),
        ledger: ledgerOf(db, project),
        again: [...typedNightArgs(command), ...typedTaskArgs(flags)],
      });
    } finally {
      db.close();
    }
  } finally {
    demo?.cleanup();
  }
}
