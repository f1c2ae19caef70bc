/**
 * `lessons list|show|forget`: the lessons mined from the sessions the store holds. Nothing is
 * harvested here (`harvest`, a night or the daemon reads new transcripts): a listing is quick, and the
 * mining result is reused while the store has nothing new.
 */
// The command's action; its definition (options, help text) is `lessons.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { forgottenOf } from '../../core/forgotten-lesson.js';
import type { Lesson, LessonEvidence } from '../../core/lesson.js';
import { judgedBy, lessonSummary } from '../../night/lesson-report.js';
import { checkText } from '../../night/night-report.js';
import { runningNights } from '../../night/lock.js';
import { DEFAULT_MAX_SESSIONS, leftOutNote, mineProjectClusters } from '../../night/mine-project.js';
import type { Db } from '../../store/db.js';
import { isForgottenLesson, recordForgottenLesson } from '../../store/forgotten-lessons-repo.js';
import {
  checkGoneProject,
  cliContext,
  openDb,
  resolveStoredProject,
  type CliContext,
  type CommonFlags,
} from '../context.js';
import { displayText, printJson, say } from '../output.js';
import { projectConfig } from '../project-config.js';

/** An answer excerpt shown by `lessons show` (the JSON has the miner's whole excerpt). */
const EXCERPT_CHARS = 240;
const RULE_CHARS = 100;

interface Mined {
  ctx: CliContext;
  project: string;
  db: Db;
  lessons: Lesson[];
  nSessions: number;
  leftOut: string | null;
}

/** Options typed before the subcommand (`lessons --scope all show ID`) count as typed after it. */
function withParentOptions(cmd: Command): Command {
  const parent = cmd.parent;
  if (parent === null) return cmd;
  for (const option of parent.options) {
    const key = option.attributeName();
    const own = cmd.options.some((o) => o.attributeName() === key);
    if (own && parent.getOptionValueSource(key) === 'cli' && cmd.getOptionValueSource(key) !== 'cli')
      cmd.setOptionValueWithSource(key, parent.getOptionValue(key), 'cli');
  }
  return cmd;
}

/** Mine the project from the store (no harvest) and run `fn` with its lessons. */
function withLessons<T>(sub: Command, fn: (m: Mined) => T): T {
  const cmd = withParentOptions(sub);
  const flags = cmd.opts<CommonFlags>();
  const ctx = cliContext(flags);
  const project = resolveStoredProject(flags.project);
  const db = openDb(ctx);
  try {
    checkGoneProject(db, project, ctx.logger);
    const { config } = projectConfig(ctx, project, cmd);
    // Lessons come from every mined session: the active window and the task cap play no part.
    const mined = mineProjectClusters(db, project, config, ctx.clock, true);
    const limit = config.max_sessions_per_night ?? DEFAULT_MAX_SESSIONS;
    return fn({
      ctx,
      project,
      db,
      lessons: mined.lessons,
      nSessions: mined.nSessions,
      leftOut: mined.sessionsLeftOut > 0 ? leftOutNote(mined.sessionsLeftOut, limit) : null,
    });
  } finally {
    db.close();
  }
}

const cut = (text: string, n: number): string => {
  const line = displayText(text);
  return [...line].length > n ? `${[...line].slice(0, n - 1).join('')}…` : line;
};

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The id as typed, safe to print in a one-line error. */
const shownId = (id: string): string => JSON.stringify(displayText(id));

/** The lesson `id` among the mined ones; a forgotten or unknown id is a usage error (exit 2). */
function findLesson(m: Mined, id: string): Lesson {
  const lesson = m.lessons.find((l) => l.id === id);
  if (lesson) return lesson;
  if (isForgottenLesson(m.db, id))
    throw new UsageError(`lesson ${shownId(id)} was forgotten (\`lessons forget\`): it is not mined again`);
  throw new UsageError(
    `no lesson ${shownId(id)} among the ${plural(m.lessons.length, 'lesson')} of ${m.project}: \`skillopt-sleep lessons\` lists them`,
  );
}

export function doLessonsList(cmd: Command): void {
  withLessons(cmd, (m) => {
    if (m.ctx.json) {
      printJson({
        project: m.project,
        n_sessions: m.nSessions,
        ...(m.leftOut ? { note: m.leftOut } : {}),
        lessons: m.lessons.map(lessonSummary),
      });
      return;
    }
    const active = m.lessons.filter((l) => l.retired_by === undefined).length;
    say(
      `[sleep] ${plural(m.lessons.length, 'lesson')} (${active} active) from the ${plural(m.nSessions, 'session')} stored for ${m.project}; \`skillopt-sleep harvest\` reads new transcripts`,
    );
    if (m.leftOut) say(`[sleep] ${m.leftOut}`);
    for (const l of m.lessons) {
      const retired = l.retired_by !== undefined ? `  retired by ${l.retired_by}` : '';
      say(
        `[sleep] ${l.id}  x${l.support}  ${cut(l.rule, RULE_CHARS)}  (${l.kind ? `${cut(l.kind, 40)}; ` : ''}${judgedBy(l)})${retired}`,
      );
    }
    if (m.lessons.length > 0)
      say('[sleep] `lessons show <id>` shows where each was said; `lessons forget <id>` drops one for good');
  });
}

/** A lesson with all its evidence, answers included (as the miner capped them). */
function lessonDetail(l: Lesson) {
  return {
    ...lessonSummary(l),
    kinds: l.kinds,
    evidence: l.evidence.map((e) => ({ ...e, signals: [...e.signals] })),
  };
}

function evidenceLines(e: LessonEvidence, i: number, n: number): string[] {
  const signals = e.signals.length > 0 ? ` (${e.signals.map(displayText).join(', ')})` : '';
  return [
    `[sleep] evidence ${i + 1} of ${n}: ${displayText(e.session)}, prompt ${e.turn}${signals}`,
    `[sleep]   said: ${cut(e.sentence, EXCERPT_CHARS)}`,
    ...(e.rejected !== '' ? [`[sleep]   answer before: ${cut(e.rejected, EXCERPT_CHARS)}`] : []),
    ...(e.accepted !== '' ? [`[sleep]   answer after: ${cut(e.accepted, EXCERPT_CHARS)}`] : []),
  ];
}

export function doLessonsShow(id: string, cmd: Command): void {
  withLessons(cmd, (m) => {
    const l = findLesson(m, id);
    if (m.ctx.json) {
      printJson({ project: m.project, lesson: lessonDetail(l) });
      return;
    }
    say(`[sleep] lesson ${l.id}${l.retired_by !== undefined ? ` (retired by ${l.retired_by})` : ''}`);
    say(`[sleep] rule: ${displayText(l.rule)}`);
    say(`[sleep] project: ${displayText(l.project)}`);
    say(`[sleep] kind: ${displayText(l.kind) || '—'}; read from ${l.origin}`);
    say(`[sleep] said in ${plural(l.support, 'session')}`);
    if (l.checks.length > 0) {
      say(`[sleep] judged by ${judgedBy(l)}:`);
      for (const c of l.checks) say(`[sleep]   ${displayText(checkText(c))}`);
    } else if (l.criterion !== null) {
      say(`[sleep] judged by a model against the criterion: ${displayText(l.criterion)}`);
    } else {
      say('[sleep] judged by nothing');
    }
    l.evidence.forEach((e, i) => {
      for (const line of evidenceLines(e, i, l.evidence.length)) say(line);
    });
  });
}

export function doLessonsForget(id: string, cmd: Command): void {
  withLessons(cmd, (m) => {
    const known = m.lessons.find((l) => l.id === id);
    if (known === undefined && isForgottenLesson(m.db, id)) {
      if (m.ctx.json) printJson({ project: m.project, forgotten: null, already_forgotten: id });
      else say(`[sleep] lesson ${id} was already forgotten`);
      return;
    }
    const lesson = findLesson(m, id);
    const record = forgottenOf(lesson);
    recordForgottenLesson(m.db, record, m.ctx.clock.now());
    // A night that mined before this forget still trains with it; the next one does not.
    const running = runningNights(m.ctx.home).filter((n) => n.project === m.project);
    if (running.length > 0)
      m.ctx.logger.warn(
        `a night is running for ${m.project} (pid ${running[0]?.pid ?? '?'}): it mined before this, so it may still use the lesson`,
      );
    if (m.ctx.json) {
      printJson({ project: m.project, forgotten: lessonSummary(lesson) });
      return;
    }
    say(
      `[sleep] forgot lesson ${lesson.id}: ${cut(lesson.rule, RULE_CHARS)} (${plural(record.evidence.length, 'piece')} of evidence in ${plural(lesson.support, 'session')})`,
    );
    say(
      '[sleep] it is not mined again, nor another lesson with its evidence or its rule in this project, and judges no task; the store keeps only hashes of it',
    );
    say(
      '[sleep] the sessions it was said in stay stored: `skillopt-sleep forget --session ID` deletes a session',
    );
  });
}
