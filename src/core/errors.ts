/**
 * Typed errors. Core code throws these; only src/cli/main.ts turns them into exit codes.
 * 0 done · 1 runtime failure (backend, auth, I/O) · 2 usage, bad config or input, refused adoption · 75 lock held.
 */
export const EXIT = { ok: 0, runtime: 1, usage: 2, lockHeld: 75 } as const;

export class SkilloptError extends Error {
  readonly exitCode: number;
  /** A short machine-readable code for `--json` failure payloads. */
  readonly code: string;
  constructor(message: string, exitCode: number, code: string) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.code = code;
  }
}

/** Bad flags or arguments. */
export class UsageError extends SkilloptError {
  constructor(message: string) {
    super(message, EXIT.usage, 'usage');
  }
}

/** A config file that does not parse or does not match the schema; names the file and the key. */
export class ConfigError extends SkilloptError {
  constructor(message: string, code = 'bad_config') {
    super(message, EXIT.usage, code);
  }
}

/** Input we were given (tasks file, proposal folder) that is malformed or not allowed. */
export class InputError extends SkilloptError {
  constructor(message: string, code = 'bad_input') {
    super(message, EXIT.usage, code);
  }
}

/** Adoption refused: live file changed, proposal already adopted, nothing to adopt... */
export class AdoptRefusedError extends SkilloptError {
  constructor(message: string, code = 'adoption_refused') {
    super(message, EXIT.usage, code);
  }
}

/** A model backend failed (network, auth, malformed answer). */
export class BackendError extends SkilloptError {
  constructor(message: string) {
    super(message, EXIT.runtime, 'backend_failed');
  }
}

/**
 * A night's spend limit (`max_calls`, `max_tokens`, `max_cost_usd`) would be crossed by the next request.
 * Not a failure: the night stops cleanly, stages nothing unverified and reports `"stopped": "budget"`.
 */
export class BudgetExhaustedError extends SkilloptError {
  readonly limit: string;
  constructor(message: string, limit: string) {
    super(message, EXIT.ok, 'budget_exhausted');
    this.limit = limit;
  }
}

/** Reading or writing files or the store failed. */
export class IoError extends SkilloptError {
  constructor(message: string, code = 'io_failed') {
    super(message, EXIT.runtime, code);
  }
}

/** Another night already holds this project's lock. */
export class LockHeldError extends SkilloptError {
  constructor(message: string) {
    super(message, EXIT.lockHeld, 'lock_held');
  }
}

/**
 * A request waits for an answer: it went to the handoff queue (`--backend handoff`) or into the next
 * batch (`--batch`). Not a failure: the night stops cleanly (exit 0, `"stopped": "waiting_handoff"`)
 * and resumes on the next `run`. Work that does not depend on the waiting answer goes on past it
 * (`waits.ts`, `mapPool`, the miner's loops), so one invocation queues every request
 * that does not wait on another; the waits are then thrown as one, naming the phases that wait.
 */
export class AnswerPendingError extends SkilloptError {
  readonly requestId: string;
  /** The phases of the night that wait (e.g. "skill baseline_val"), each named where it waited. */
  readonly phases: readonly string[];
  constructor(requestId: string, phases: readonly string[] = []) {
    super(
      `the request ${requestId} waits for an answer (skillopt-sleep handoff next)`,
      EXIT.ok,
      'waiting_handoff',
    );
    this.requestId = requestId;
    this.phases = phases;
  }

  /** This wait named by `phase`, unless a phase inside it was named already (the innermost wins). */
  inPhase(phase: string): AnswerPendingError {
    return this.phases.length > 0 ? this : new AnswerPendingError(this.requestId, [phase]);
  }

  /** Several waits as one: the first one's request, and every phase that waits, once, in order. */
  static join(waits: readonly AnswerPendingError[]): AnswerPendingError {
    const first = waits[0];
    if (!first) throw new Error('unreachable: joining no waits');
    if (waits.length === 1) return first;
    return new AnswerPendingError(first.requestId, [...new Set(waits.flatMap((w) => w.phases))]);
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The errno code of a Node system error (`ENOENT`, `EEXIST`, ...), or undefined for anything else. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err != null && 'code' in err && typeof err.code === 'string') {
    return err.code;
  }
  return undefined;
}

/** ENOENT, or ENOTDIR (a parent is a regular file): either way the path does not exist. */
export function isMissingPathError(err: unknown): boolean {
  const code = errnoCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}
