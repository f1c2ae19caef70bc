/**
 * A Codex session being read: metadata plus an ordered list of normalised entries from BOTH record
 * streams, turned into turns once the file is read.
 *
 * Why two streams: Codex G2 writes every prompt and answer twice, as `response_item` messages and as
 * `event_msg` user_message / agent_message (harvest-spec §3.3). We keep the entries of both, tagged,
 * and pick ONE stream per file when building turns: `response_item` when the file has any kept
 * response_item message, else `event_msg`. Tool calls and their errors are picked the same way,
 * independently (`response_item` function calls and outputs, else the `exec_command_end` /
 * `patch_apply_end` events). Picking a stream instead of matching duplicate texts keeps a prompt the
 * user really sent twice (e.g. re-sent after an interrupt) as two turns.
 */
import { hasActionRoom, pushActions } from '../shared/actions.js';
import { codexActions, type CodexCall } from './actions.js';
import { OrderedSet } from '../shared/values.js';

export { OrderedSet };
import type { HarvestedSession, HarvestedTurn, ToolAction } from '../../src/core/session.js';

export type Stream = 'item' | 'event';

export type Entry =
  | {
      kind: 'message';
      stream: Stream;
      role: 'user' | 'assistant';
      text: string;
      ts: number | null;
      offset: number;
    }
  | {
      kind: 'tool';
      stream: Stream;
      name: string;
      ts: number | null;
      offset: number;
      files: string[];
      /** Turned into actions only if this entry's stream is the one turns are built from. */
      call: CodexCall;
    }
  | { kind: 'toolError' | 'rejection'; stream: Stream }
  | { kind: 'interrupt' };

const MAX_FILES_TOUCHED = 50;

export interface SessionDraft {
  sessionId: string;
  /** From session_meta; wins over turn_context and environment-context cwds. */
  metaCwd: string;
  turnCwd: string;
  envCwd: string;
  branch: string;
  model: string;
  sourceVersion: string;
  /** A sub-agent thread (session_meta `source.subagent`): its prompts are written by the parent agent. */
  subagent: boolean;
  /** The first session_meta fixes the id; later ones (resumed or forked history) do not. */
  sawSessionMeta: boolean;
  startedAt: number | null;
  endedAt: number | null;
  /** G0/G1 records carry no timestamps; their end time falls back to the file mtime. */
  sawRecordTimestamp: boolean;
  entries: Entry[];
  skillsUsed: OrderedSet;
}

export function newDraft(fallbackSessionId: string): SessionDraft {
  return {
    sessionId: fallbackSessionId,
    metaCwd: '',
    turnCwd: '',
    envCwd: '',
    branch: '',
    model: '',
    sourceVersion: '',
    subagent: false,
    sawSessionMeta: false,
    startedAt: null,
    endedAt: null,
    sawRecordTimestamp: false,
    entries: [],
    skillsUsed: new OrderedSet(),
  };
}

export function noteTimestamp(draft: SessionDraft, ts: number | null): void {
  if (ts == null) return;
  draft.startedAt = draft.startedAt == null ? ts : Math.min(draft.startedAt, ts);
  draft.endedAt = draft.endedAt == null ? ts : Math.max(draft.endedAt, ts);
}

// ---------------------------------------------------------------------------------------------
// Building turns

interface DraftTurn {
  role: 'user' | 'assistant';
  offset: number;
  text: string;
  ts: number | null;
  toolNames: string[];
  actions: ToolAction[];
  toolErrors: number;
  interrupted: boolean;
}

interface TurnBuilder {
  turns: DraftTurn[];
  lastUserTurn: DraftTurn | undefined;
  /** Errors/interrupts before any user turn (parsing from an offset) go to the next prompt. */
  pendingToolErrors: number;
  pendingInterrupt: boolean;
  toolsUsed: OrderedSet;
  /** Patched files, from the chosen tool stream only (items name them relative, events absolute). */
  filesTouched: OrderedSet;
}

export function finishSession(
  draft: SessionDraft,
  sourcePath: string,
  fileMtimeMs: number,
): HarvestedSession | undefined {
  if (draft.subagent) return undefined;
  const builder: TurnBuilder = {
    turns: [],
    lastUserTurn: undefined,
    pendingToolErrors: 0,
    pendingInterrupt: false,
    toolsUsed: new OrderedSet(),
    filesTouched: new OrderedSet(MAX_FILES_TOUCHED),
  };
  const messageStream = preferredStream(draft.entries, (e) => e.kind === 'message');
  const toolStream = preferredStream(draft.entries, (e) => e.kind !== 'message' && e.kind !== 'interrupt');
  for (const entry of draft.entries) {
    if (entry.kind === 'interrupt') noteInterrupt(builder);
    else if (entry.kind === 'message') {
      if (entry.stream === messageStream) addMessage(builder, entry);
    } else if (entry.stream !== toolStream) continue;
    else if (entry.kind === 'tool') addTool(builder, entry);
    else if (entry.kind === 'toolError') noteToolError(builder);
    else noteInterrupt(builder);
  }
  if (builder.turns.length === 0) return undefined;
  return {
    source: 'codex',
    sessionId: draft.sessionId,
    cwd: draft.metaCwd || draft.turnCwd || draft.envCwd,
    branch: draft.branch,
    model: draft.model,
    startedAt: draft.startedAt,
    endedAt: endTime(draft, fileMtimeMs),
    turns: builder.turns.map((t, seq): HarvestedTurn => ({ seq, ...t })),
    toolsUsed: builder.toolsUsed.values(),
    skillsUsed: draft.skillsUsed.values(),
    filesTouched: builder.filesTouched.values(),
    sourcePath,
    sourceVersion: draft.sourceVersion,
  };
}

/** `response_item` when the file has any entry of that kind from it, else `event_msg`. */
function preferredStream(entries: Entry[], ofKind: (e: Entry) => boolean): Stream {
  return entries.some((e) => ofKind(e) && 'stream' in e && e.stream === 'item') ? 'item' : 'event';
}

/** Files without record timestamps (G0/G1) end when the file was last written. */
function endTime(draft: SessionDraft, fileMtimeMs: number): number | null {
  if (draft.sawRecordTimestamp || !Number.isFinite(fileMtimeMs)) return draft.endedAt;
  const mtime = Math.trunc(fileMtimeMs);
  return draft.startedAt == null || mtime >= draft.startedAt ? mtime : draft.endedAt;
}

function addMessage(builder: TurnBuilder, entry: Extract<Entry, { kind: 'message' }>): void {
  if (entry.role === 'user') {
    const turn = newTurn('user', entry.offset, entry.ts);
    turn.text = entry.text;
    turn.toolErrors = builder.pendingToolErrors;
    turn.interrupted = builder.pendingInterrupt;
    builder.pendingToolErrors = 0;
    builder.pendingInterrupt = false;
    builder.turns.push(turn);
    builder.lastUserTurn = turn;
    return;
  }
  builder.turns.push({ ...newTurn('assistant', entry.offset, entry.ts), text: entry.text });
}

/**
 * A Codex response lists its message (the preamble) before the calls it announces, so calls join the
 * assistant turn before them, like one Claude API message; calls right after a prompt open a turn.
 */
function addTool(builder: TurnBuilder, entry: Extract<Entry, { kind: 'tool' }>): void {
  builder.toolsUsed.add(entry.name);
  for (const file of entry.files) builder.filesTouched.add(file);
  const last = builder.turns[builder.turns.length - 1];
  let turn = last?.role === 'assistant' ? last : undefined;
  if (turn === undefined) {
    turn = newTurn('assistant', entry.offset, entry.ts);
    builder.turns.push(turn);
  }
  turn.toolNames.push(entry.name);
  if (hasActionRoom(turn.actions)) pushActions(turn.actions, codexActions(entry.name, entry.call));
}

function newTurn(role: 'user' | 'assistant', offset: number, ts: number | null): DraftTurn {
  return { role, offset, text: '', ts, toolNames: [], actions: [], toolErrors: 0, interrupted: false };
}

function noteToolError(builder: TurnBuilder): void {
  if (builder.lastUserTurn) builder.lastUserTurn.toolErrors++;
  else builder.pendingToolErrors++;
}

function noteInterrupt(builder: TurnBuilder): void {
  if (builder.lastUserTurn) builder.lastUserTurn.interrupted = true;
  else builder.pendingInterrupt = true;
}
