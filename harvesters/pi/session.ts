/**
 * The Pi session being built from one file's entries (`pi.ts` reads them): the header
 * (`{"type":"session","version","id","timestamp","cwd","parentSession"?}`) and the `message` entries,
 * whose `message.role` is `user`, `assistant` (content blocks `text`, `thinking`, `toolCall`),
 * `toolResult`, or one of the agent's own (`bashExecution` for a `!command` the user ran, `custom` from
 * extensions): none of those is a prompt. Shapes: packages/coding-agent/src/core/session-manager.ts
 * and messages.ts, packages/ai/src/types.ts in badlogic/pi-mono.
 */
import path from 'node:path';
import { hasActionRoom } from '../shared/actions.js';
import {
  finishTurns,
  isRecord,
  OrderedSet,
  parseUtcMs,
  type TurnDraft,
  emptyTurnDraft,
} from '../shared/values.js';
import { piToolAction, piToolFile } from './actions.js';
import type { HarvestedSession } from '../../src/core/session.js';

const MAX_FILES_TOUCHED = 50;
/** A `/skill:name args` prompt as Pi sends it (`_expandSkillCommand` in agent-session.ts). */
const SKILL_BLOCK = /^<skill name="([^"]+)" location="[^"]*">\n[\s\S]*?\n<\/skill>(?:\n\n([\s\S]+))?$/;

export class PiSession {
  sessionId: string;
  cwd = '';
  /** The header's time; a fork's copies of its parent's entries are older (see `isForkCopy`). */
  private headerMs: number | null = null;
  private forked = false;
  private headerSeen = false;
  model = '';
  startedAt: number | null = null;
  endedAt: number | null = null;
  turns: TurnDraft[] = [];
  toolsUsed = new OrderedSet();
  skillsUsed = new OrderedSet();
  filesTouched = new OrderedSet(MAX_FILES_TOUCHED);
  private lastUser: TurnDraft | undefined;
  /** Errors and interrupts before the first prompt of the parsed range go to that prompt. */
  private pendingErrors = 0;
  private pendingInterrupt = false;
  /** An entry written twice (a session flushed again whole) counts once. */
  private readonly seen = new Set<string>();

  constructor(filePath: string) {
    // `<time>_<id>.jsonl`: the id, until the header says.
    const stem = path.basename(filePath).replace(/\.jsonl$/i, '');
    this.sessionId = stem.slice(stem.indexOf('_') + 1) || stem;
  }

  /** The first header wins: a second one is the duplicate Pi once wrote when it flushed a file again. */
  applyHeader(entry: Record<string, unknown>): void {
    if (this.headerSeen) return;
    this.headerSeen = true;
    if (typeof entry['id'] === 'string' && entry['id'].trim() !== '') this.sessionId = entry['id'].trim();
    if (typeof entry['cwd'] === 'string') this.cwd = entry['cwd'].trim();
    this.headerMs = parseUtcMs(entry['timestamp']);
    this.forked = typeof entry['parentSession'] === 'string' && entry['parentSession'] !== '';
    this.widen(this.headerMs);
  }

  apply(entry: Record<string, unknown>, offset: number): void {
    if (entry['type'] === 'session') return this.applyHeader(entry);
    const id = entry['id'];
    if (typeof id === 'string') {
      if (this.seen.has(id)) return;
      this.seen.add(id);
    }
    const message = isRecord(entry['message']) ? entry['message'] : undefined;
    const ts = parseUtcMs(entry['timestamp']) ?? parseUtcMs(message?.['timestamp']);
    if (this.isForkCopy(ts)) return;
    this.widen(ts);
    if (entry['type'] === 'model_change' && typeof entry['modelId'] === 'string')
      this.model ||= entry['modelId'].trim();
    if (entry['type'] !== 'message' || message === undefined) return;
    const role = message['role'];
    if (role === 'user') this.applyPrompt(message, ts, offset);
    else if (role === 'assistant') this.applyAnswer(message, ts, offset);
    else if (role === 'toolResult' && message['isError'] === true) this.noteError();
  }

  /**
   * A fork (`/fork`, a branch made into its own file) starts with a copy of its parent's entries, ids and
   * times kept: those are the parent's turns, stored from the parent's file.
   */
  private isForkCopy(ts: number | null): boolean {
    return this.forked && ts != null && this.headerMs != null && ts < this.headerMs;
  }

  private applyPrompt(message: Record<string, unknown>, ts: number | null, offset: number): void {
    let text = blockText(message['content']).trim();
    const skill = SKILL_BLOCK.exec(text);
    if (skill != null) {
      const name = skill[1] ?? '';
      this.skillsUsed.add(name);
      // What the user typed: the command and its words, not the skill's text Pi pasted in.
      text = `/skill:${name}${skill[2] ? ` ${skill[2].trim()}` : ''}`;
    }
    if (text === '') return;
    const turn = emptyTurnDraft('user', ts, offset);
    turn.textParts.push(text);
    turn.toolErrors = this.pendingErrors;
    turn.interrupted = this.pendingInterrupt;
    this.pendingErrors = 0;
    this.pendingInterrupt = false;
    this.turns.push(turn);
    this.lastUser = turn;
  }

  private applyAnswer(message: Record<string, unknown>, ts: number | null, offset: number): void {
    const turn = emptyTurnDraft('assistant', ts, offset);
    const blocks = Array.isArray(message['content']) ? message['content'].filter(isRecord) : [];
    for (const block of blocks) {
      if (block['type'] === 'text' && typeof block['text'] === 'string') {
        const text = block['text'].trim();
        if (text !== '') turn.textParts.push(text);
      } else if (block['type'] === 'toolCall' && typeof block['name'] === 'string' && block['name'].trim()) {
        const name = block['name'].trim();
        turn.toolNames.push(name);
        this.toolsUsed.add(name);
        if (hasActionRoom(turn.actions)) turn.actions.push(piToolAction(name, block['arguments']));
        const file = piToolFile(name, block['arguments']);
        if (file !== '') this.filesTouched.add(file);
      }
    }
    if (typeof message['model'] === 'string') this.model ||= message['model'].trim();
    if (message['stopReason'] === 'aborted') this.noteInterrupt(); // the user pressed Escape
    this.turns.push(turn);
  }

  private noteError(): void {
    if (this.lastUser) this.lastUser.toolErrors++;
    else this.pendingErrors++;
  }

  private noteInterrupt(): void {
    if (this.lastUser) this.lastUser.interrupted = true;
    else this.pendingInterrupt = true;
  }

  private widen(ts: number | null): void {
    if (ts == null) return;
    this.startedAt = this.startedAt == null ? ts : Math.min(this.startedAt, ts);
    this.endedAt = this.endedAt == null ? ts : Math.max(this.endedAt, ts);
  }

  finish(sourcePath: string): HarvestedSession | undefined {
    const turns = finishTurns(this.turns);
    if (turns.length === 0) return undefined;
    return {
      source: 'pi',
      sessionId: this.sessionId,
      cwd: this.cwd,
      branch: '',
      model: this.model,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      turns,
      toolsUsed: this.toolsUsed.values(),
      skillsUsed: this.skillsUsed.values(),
      filesTouched: this.filesTouched.values(),
      sourcePath,
      sourceVersion: '',
    };
  }
}

/** A string, or its `text` blocks joined by newlines (images have none). */
function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .filter((block) => block['type'] === 'text' && typeof block['text'] === 'string')
    .map((block) => block['text'] as string)
    .join('\n');
}
