/**
 * One Cursor composer as a `HarvestedSession`. A bubble is `{type: 1}` (the user's: `text`) or `{type: 2}` (the
 * model's: `text`, or a tool call in `toolFormerData: {name, rawArgs (JSON text) | params, status}`); the
 * model's consecutive bubbles after a prompt are one answer, as the editor shows them. Times: a bubble's
 * `createdAt` when it has one, else the composer's `createdAt` and `lastUpdatedAt`.
 */
import { pushActions } from '../shared/actions.js';
import {
  finishTurns,
  isRecord,
  OrderedSet,
  parseUtcMs,
  type TurnDraft,
  emptyTurnDraft,
} from '../shared/values.js';
import { cursorToolActions } from '../cursor-cli/actions.js';
import type { CursorComposer } from './store.js';
import type { HarvestedSession } from '../../src/core/session.js';

const MAX_FILES_TOUCHED = 50;
const USER = 1;
const MODEL = 2;
const FILE_KINDS = new Set(['read', 'edit', 'write', 'delete']);

export function buildCursorSession(
  composer: CursorComposer,
  cwd: string,
  sourcePath: string,
): HarvestedSession | undefined {
  const drafts: TurnDraft[] = [];
  const toolsUsed = new OrderedSet();
  const filesTouched = new OrderedSet(MAX_FILES_TOUCHED);
  const createdMs = parseUtcMs(composer.data['createdAt']);
  const updatedMs = parseUtcMs(composer.data['lastUpdatedAt']);
  let startedAt = createdMs;
  let endedAt = updatedMs ?? createdMs;
  let lastUser: TurnDraft | undefined;
  let answer: TurnDraft | undefined;
  for (const bubble of composer.bubbles) {
    const ts = parseUtcMs(bubble['createdAt']);
    if (ts != null) {
      startedAt = startedAt == null ? ts : Math.min(startedAt, ts);
      endedAt = endedAt == null ? ts : Math.max(endedAt, ts);
    }
    const text = typeof bubble['text'] === 'string' ? bubble['text'].trim() : '';
    if (bubble['type'] === USER) {
      answer = undefined;
      if (text === '') continue;
      lastUser = emptyTurnDraft('user', ts ?? (drafts.length === 0 ? createdMs : null));
      lastUser.textParts.push(text);
      drafts.push(lastUser);
    } else if (bubble['type'] === MODEL) {
      if (answer === undefined) {
        answer = emptyTurnDraft('assistant', ts);
        drafts.push(answer);
      }
      if (text !== '') answer.textParts.push(text);
      const tool = isRecord(bubble['toolFormerData']) ? bubble['toolFormerData'] : undefined;
      const name = typeof tool?.['name'] === 'string' ? tool['name'].trim() : '';
      if (tool !== undefined && name !== '') {
        const args = toolArgs(tool);
        answer.toolNames.push(name);
        toolsUsed.add(name);
        const actions = cursorToolActions(name, args);
        pushActions(answer.actions, actions);
        for (const a of actions)
          if (FILE_KINDS.has(a.kind) && a.target.trim() !== '') filesTouched.add(a.target.trim());
        if (tool['status'] === 'error' && lastUser) lastUser.toolErrors++;
        if (tool['status'] === 'cancelled' && lastUser) lastUser.interrupted = true;
      }
    }
  }
  const turns = finishTurns(drafts);
  if (!turns.some((t) => t.role === 'user')) return undefined;
  return {
    source: 'cursor-ide',
    sessionId: composer.id,
    cwd,
    branch: '',
    model: '',
    startedAt,
    endedAt,
    turns,
    toolsUsed: toolsUsed.values(),
    skillsUsed: [],
    filesTouched: filesTouched.values(),
    sourcePath,
    sourceVersion: '',
  };
}

/** `rawArgs` (the call's arguments as the model wrote them, JSON text), else `params`. */
function toolArgs(tool: Record<string, unknown>): unknown {
  if (typeof tool['rawArgs'] === 'string') {
    try {
      return JSON.parse(tool['rawArgs']);
    } catch {
      return {};
    }
  }
  if (typeof tool['params'] === 'string') {
    try {
      return JSON.parse(tool['params']);
    } catch {
      return {};
    }
  }
  return isRecord(tool['params']) ? tool['params'] : {};
}
