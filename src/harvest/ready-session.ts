/**
 * A parsed session made ready for the store outside any write transaction: its texts redacted, and
 * whether a machine started it. Used on the main thread (`harvest.ts`) and in the parse workers
 * (`parse-worker.ts`), so both give the store the same session.
 */
import { capText, MAX_TARGET_CHARS, MAX_TEXT_CHARS } from '../../harvesters/shared/actions.js';
import type { HarvestedSession, ToolAction } from '../core/session.js';
import { isMachineSessionPrompt } from '../core/machine-sessions.js';
import { plainText, storedText } from '../core/safe-text.js';
import { redactTurnText } from './turn-text.js';

/**
 * A session read and waiting to be stored. `redacted`: its texts went through `redactSession` (else it
 * is the parse's own, redacted when it is stored, if it ever is). `machinePrompt`: its first prompt, as
 * parsed, is our replay marker or another memory tool's (the store drops it when the parse holds the
 * session whole).
 */
export interface ReadySession {
  session: HarvestedSession;
  redacted: boolean;
  machinePrompt: boolean;
}

/**
 * Every text that reaches the store loses its control characters and goes through the redaction: turn texts and each action's command
 * or path and file text (cut again to the caps, since a redaction marker can be longer than the secret).
 */
export function redactSession(s: HarvestedSession): HarvestedSession {
  return {
    ...s,
    branch: plainText(s.branch),
    model: plainText(s.model),
    sourceVersion: plainText(s.sourceVersion),
    toolsUsed: s.toolsUsed.map(plainNames),
    skillsUsed: s.skillsUsed.map(plainNames),
    filesTouched: s.filesTouched.map(plainNames),
    turns: s.turns.map((t) => ({
      ...t,
      text: redactTurnText(t.text),
      toolNames: t.toolNames.map(plainNames),
      actions: t.actions.length === 0 ? t.actions : t.actions.map(redactAction),
    })),
  };
}

const plainNames = (s: string): string => plainText(s);

function redactAction(a: ToolAction): ToolAction {
  return {
    ...a,
    tool: plainText(a.tool),
    target: redactCapped(a.target, MAX_TARGET_CHARS),
    added: redactCapped(a.added, MAX_TEXT_CHARS),
    removed: redactCapped(a.removed, MAX_TEXT_CHARS),
  };
}

function redactCapped(text: string, max: number): string {
  if (text === '') return '';
  const redacted = storedText(text);
  return redacted.length <= max ? redacted : capText(redacted, max);
}

/** Whether the session's first prompt, as parsed, shows that a machine started it. */
export function hasMachinePrompt(s: HarvestedSession, extraMarkers: readonly string[]): boolean {
  return isMachineSessionPrompt(s.turns.find((t) => t.role === 'user')?.text ?? '', extraMarkers);
}

/** A parse worker's reading: every session redacted (the store decides later which it keeps). */
export function readyEverySession(s: HarvestedSession, extraMarkers: readonly string[]): ReadySession {
  return { session: redactSession(s), redacted: true, machinePrompt: hasMachinePrompt(s, extraMarkers) };
}
