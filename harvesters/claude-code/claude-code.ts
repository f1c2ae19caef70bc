/**
 * Claude Code transcripts: `<config dir>/projects/<slug>/<sessionId>.jsonl`, one JSON record per line.
 * Record shapes and the real-data pitfalls handled here are in harvest-spec §2 (see ARCHITECTURE.md).
 */
import path from 'node:path';
import { IoError, errorMessage } from '../../src/core/errors.js';
import { readJsonlLines } from '../../src/core/io/jsonl.js';
import { walkFiles } from '../../src/core/io/walk.js';
import { hasActionRoom } from '../shared/actions.js';
import { claudeToolAction } from './actions.js';
import { isCommandExpansion, typedCommandLine } from './slash-command.js';
import type { FileParse, HarvestContext, Harvester, ParseOptions } from '../types.js';
import type { SourceFile, HarvestedSession } from '../../src/core/session.js';
import {
  finishTurns,
  isRecord,
  OrderedSet,
  parseUtcMs as parseAnyUtcMs,
  settled,
  type TurnDraft,
} from '../shared/values.js';

const MAX_FILES_TOUCHED = 50;
/** Command wrappers Claude Code writes as user records; they are harness output, not prompts. */
const COMMAND_MARKERS = [
  '<command-name>',
  '<command-message>',
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<local-command-caveat>',
  '<bash-input>',
  '<bash-stdout>',
  '<bash-stderr>',
];
const COMMAND_MARKER_WINDOW = 200;
/** "[Request interrupted by user]" or "... for tool use]", sometimes followed by a real prompt. */
const INTERRUPT_MARKER = /^\s*\[Request interrupted by user[^\]]*\]/;
/** What Claude Code puts in the tool_result when the user rejects a tool call. */
const REJECTION_PATTERNS = [/doesn't want to proceed with this tool use/i, /tool use was rejected/i];
const REJECTION_WINDOW = 300;
/** Claude Code's own placeholder messages (API errors, "No response requested.") use this model. */
const SYNTHETIC_MODEL = '<synthetic>';
const FILE_PATH_KEYS = ['file_path', 'path', 'notebook_path'] as const;

export const claude: Harvester = {
  id: 'claude',
  incremental: true,
  roots: claudeProjectRoots,
  discover: discoverClaudeTranscripts,
  parse: (file, fromOffset, options) => settled(() => parseClaudeTranscript(file, fromOffset, options)),
};

// ---------------------------------------------------------------------------------------------
// Roots and discovery

/** `$CLAUDE_CONFIG_DIR` (comma-separated list) + `/projects` each, else `<home>/.claude/projects`. */
function claudeProjectRoots(ctx: HarvestContext): string[] {
  const configured = (ctx.env['CLAUDE_CONFIG_DIR'] ?? '')
    .split(',')
    .map((dir) => dir.trim())
    .filter((dir) => dir !== '');
  const configDirs = configured.length > 0 ? configured : [path.join(ctx.home, '.claude')];
  const roots = configDirs.map((dir) => path.resolve(expandHome(dir, ctx.home), 'projects'));
  return [...new Set(roots)];
}

function expandHome(dir: string, home: string): string {
  if (dir === '~') return home;
  if (dir.startsWith('~/') || dir.startsWith('~\\')) return path.join(home, dir.slice(2));
  return dir;
}

/** Sub-agent transcripts (`subagents/`, `agent-*.jsonl`) belong to a parent session, never their own. */
function isSessionTranscript(relPath: string): boolean {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  return name.endsWith('.jsonl') && !name.startsWith('agent-');
}

async function discoverClaudeTranscripts(ctx: HarvestContext): Promise<SourceFile[]> {
  const found: SourceFile[] = [];
  const seen = new Set<string>();
  for (const root of claudeProjectRoots(ctx)) {
    const files = await walkFiles(root, {
      match: isSessionTranscript,
      skipDir: (name) => name === 'subagents',
    });
    for (const f of files) {
      if (seen.has(f.path)) continue;
      seen.add(f.path);
      found.push({ source: 'claude', path: f.path, size: f.size, mtimeMs: f.mtimeMs, inode: f.ino });
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Parsing

function parseClaudeTranscript(file: SourceFile, fromOffset: number, options: ParseOptions = {}): FileParse {
  const fallbackSessionId = path.basename(file.path).replace(/\.jsonl$/i, '');
  const drafts = new Map<string, SessionDraft>();
  let badLines = 0;
  let endOffset = Math.max(0, fromOffset);
  try {
    for (const line of readJsonlLines(file.path, fromOffset, { ...options, unread: dropUnread })) {
      endOffset = line.endOffset;
      if (line.bad || !isRecord(line.value)) {
        badLines++;
        continue;
      }
      const record = line.value;
      const sessionId = nonEmptyString(record['sessionId']) ?? fallbackSessionId;
      let draft = drafts.get(sessionId);
      if (draft === undefined) {
        draft = newDraft(sessionId);
        drafts.set(sessionId, draft);
      }
      draft.recordOffset = line.offset;
      applyRecord(draft, record);
    }
  } catch (err) {
    throw new IoError(`Cannot read Claude Code transcript ${file.path}: ${errorMessage(err)}`);
  }
  const sessions = [...drafts.values()]
    .map((draft) => finishSession(draft, file.path))
    .filter((s): s is HarvestedSession => s !== undefined);
  return { sessions, badLines, endOffset };
}

/**
 * The fields of a record this harvester never reads (see `applyUserRecord`, `applyAssistantRecord`),
 * dropped before a long line's strings are decoded: the tool's own copy of its result, the output of
 * a tool call that did not fail (only a failed one's head is read, for a rejection), thinking.
 */
export function dropUnread(value: unknown): void {
  if (!isRecord(value)) return;
  delete value['toolUseResult'];
  const message = value['message'];
  if (!isRecord(message) || !Array.isArray(message['content'])) return;
  for (const block of message['content'] as unknown[]) {
    if (!isRecord(block)) continue;
    if (block['type'] === 'tool_result' && block['is_error'] !== true) block['content'] = '';
    else if (block['type'] === 'thinking') block['thinking'] = '';
    else if (block['type'] === 'redacted_thinking') block['data'] = '';
  }
}

type DraftTurn = TurnDraft;

interface SessionDraft {
  sessionId: string;
  cwd: string;
  branch: string;
  model: string;
  sourceVersion: string;
  startedAt: number | null;
  endedAt: number | null;
  /** Byte offset of the record being applied; a turn remembers where it started. */
  recordOffset: number;
  turns: DraftTurn[];
  /** Claude Code writes one record per content block; blocks of one API message share `message.id`. */
  assistantTurnsByMessageId: Map<string, DraftTurn>;
  /** Tool errors and interrupts are credited to the prompt whose exchange they happened in. */
  lastUserTurn: DraftTurn | undefined;
  /** Errors/interrupts seen before any user turn (e.g. parsing from an offset); go to the next one. */
  pendingToolErrors: number;
  pendingInterrupt: boolean;
  /** A prompt command's line, kept as a prompt once its expansion follows (`slash-command.ts`). */
  pendingCommand: { text: string; offset: number; ts: number | null } | undefined;
  seenUuids: Set<string>;
  toolsUsed: OrderedSet;
  skillsUsed: OrderedSet;
  filesTouched: OrderedSet;
}

function newDraft(sessionId: string): SessionDraft {
  return {
    sessionId,
    cwd: '',
    branch: '',
    model: '',
    sourceVersion: '',
    startedAt: null,
    endedAt: null,
    recordOffset: 0,
    turns: [],
    assistantTurnsByMessageId: new Map(),
    lastUserTurn: undefined,
    pendingToolErrors: 0,
    pendingInterrupt: false,
    pendingCommand: undefined,
    seenUuids: new Set(),
    toolsUsed: new OrderedSet(),
    skillsUsed: new OrderedSet(),
    filesTouched: new OrderedSet(MAX_FILES_TOUCHED),
  };
}

function applyRecord(draft: SessionDraft, record: Record<string, unknown>): void {
  // A record copied twice into one file (resume, retries) must not double its turn or text.
  const uuid = nonEmptyString(record['uuid']);
  if (uuid !== undefined) {
    if (draft.seenUuids.has(uuid)) return;
    draft.seenUuids.add(uuid);
  }
  noteEnvelope(draft, record);
  const attributionSkill = nonEmptyString(record['attributionSkill'])?.trim();
  if (attributionSkill) draft.skillsUsed.add(attributionSkill);

  const type = record['type'];
  if (type === 'user') applyUserRecord(draft, record);
  else if (type === 'assistant') applyAssistantRecord(draft, record);
  // Everything else (summary, system, file-history-snapshot, attachment, ...) carries no turns.
}

/** Session metadata from the common envelope: first non-empty value wins; timestamps widen the range. */
function noteEnvelope(draft: SessionDraft, record: Record<string, unknown>): void {
  draft.cwd ||= nonEmptyString(record['cwd']) ?? '';
  draft.branch ||= nonEmptyString(record['gitBranch']) ?? '';
  draft.sourceVersion ||= nonEmptyString(record['version']) ?? '';
  const ts = parseUtcMs(record['timestamp']);
  if (ts == null) return;
  draft.startedAt = draft.startedAt == null ? ts : Math.min(draft.startedAt, ts);
  draft.endedAt = draft.endedAt == null ? ts : Math.max(draft.endedAt, ts);
}

// ----- user records

function applyUserRecord(draft: SessionDraft, record: Record<string, unknown>): void {
  const message = record['message'];
  const content = isRecord(message) ? message['content'] : undefined;
  const command = draft.pendingCommand;
  draft.pendingCommand = undefined;
  if (command !== undefined && isCommandExpansion(record, userText(content)))
    addUserTurn(draft, command.text, command.ts, command.offset);
  // Sub-agent prompts are written by Claude, not the user; summaries and meta lines are not prompts.
  if (record['isSidechain'] === true || record['isMeta'] === true || record['isCompactSummary'] === true) {
    return;
  }
  if (!isRecord(message)) return;

  for (const result of toolResultBlocks(content)) {
    if (result['is_error'] !== true) continue;
    if (isToolRejection(result)) noteInterrupt(draft);
    else noteToolError(draft);
  }

  let text = userText(content).trim();
  if (text === '') return;
  if (isCommandRecord(text)) {
    const line = typedCommandLine(text);
    const ts = parseUtcMs(record['timestamp']);
    if (line !== undefined) draft.pendingCommand = { text: line, offset: draft.recordOffset, ts };
    return;
  }
  const interrupt = INTERRUPT_MARKER.exec(text);
  if (interrupt != null) {
    // The marker ends the exchange in progress; any text after it is a new prompt (a correction).
    noteInterrupt(draft);
    text = text.slice(interrupt[0].length).trim();
    if (text === '') return;
  }
  addUserTurn(draft, text, parseUtcMs(record['timestamp']));
}

function addUserTurn(
  draft: SessionDraft,
  text: string,
  ts: number | null,
  offset = draft.recordOffset,
): void {
  const turn: DraftTurn = {
    role: 'user',
    offset,
    textParts: [text],
    ts,
    toolNames: [],
    actions: [],
    toolErrors: draft.pendingToolErrors,
    interrupted: draft.pendingInterrupt,
  };
  draft.pendingToolErrors = 0;
  draft.pendingInterrupt = false;
  draft.turns.push(turn);
  draft.lastUserTurn = turn;
}

function noteToolError(draft: SessionDraft): void {
  if (draft.lastUserTurn) draft.lastUserTurn.toolErrors++;
  else draft.pendingToolErrors++;
}

function noteInterrupt(draft: SessionDraft): void {
  if (draft.lastUserTurn) draft.lastUserTurn.interrupted = true;
  else draft.pendingInterrupt = true;
}

/** The prompt text: string content, or its `text` blocks joined (images and tool results have none). */
function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .filter((block) => block['type'] === 'text' && typeof block['text'] === 'string')
    .map((block) => block['text'] as string)
    .join('\n');
}

function toolResultBlocks(content: unknown): Record<string, unknown>[] {
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).filter((block) => block['type'] === 'tool_result');
}

function isCommandRecord(text: string): boolean {
  const head = text.slice(0, COMMAND_MARKER_WINDOW);
  return COMMAND_MARKERS.some((marker) => head.includes(marker));
}

function isToolRejection(result: Record<string, unknown>): boolean {
  const head = toolResultText(result['content']).slice(0, REJECTION_WINDOW);
  return REJECTION_PATTERNS.some((pattern) => pattern.test(head));
}

/** tool_result content is a string or a list of blocks; only the text matters here. */
function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return userText(content);
}

// ----- assistant records

function applyAssistantRecord(draft: SessionDraft, record: Record<string, unknown>): void {
  draft.pendingCommand = undefined; // the agent answered: no expansion came, it was a local command
  const message = record['message'];
  if (!isRecord(message)) return;
  const blocks = assistantBlocks(message['content']);

  if (record['isSidechain'] === true) {
    // Inline sub-agent work (pre-2.0.28): its tools count for the session, its turns do not.
    for (const block of blocks) {
      const name = toolUseName(block);
      if (name !== undefined) draft.toolsUsed.add(name);
    }
    return;
  }
  const model = nonEmptyString(message['model']);
  // API errors and other placeholders are not answers.
  if (record['isApiErrorMessage'] === true || model === SYNTHETIC_MODEL) return;
  draft.model ||= model ?? '';

  const turn = assistantTurnFor(draft, record, message);
  for (const block of blocks) {
    if (block['type'] === 'text') {
      const text = typeof block['text'] === 'string' ? block['text'].trim() : '';
      if (text !== '') turn.textParts.push(text);
      continue;
    }
    const name = toolUseName(block);
    if (name === undefined) continue; // thinking, redacted_thinking, images...
    turn.toolNames.push(name);
    if (hasActionRoom(turn.actions)) turn.actions.push(claudeToolAction(name, block['input']));
    draft.toolsUsed.add(name);
    noteToolInput(draft, name, block['input']);
  }
}

/** The turn for this record's API message, created on its first block. */
function assistantTurnFor(
  draft: SessionDraft,
  record: Record<string, unknown>,
  message: Record<string, unknown>,
): DraftTurn {
  const messageId = nonEmptyString(message['id']);
  const existing = messageId === undefined ? undefined : draft.assistantTurnsByMessageId.get(messageId);
  if (existing) return existing;
  const turn: DraftTurn = {
    role: 'assistant',
    offset: draft.recordOffset,
    textParts: [],
    ts: parseUtcMs(record['timestamp']),
    toolNames: [],
    actions: [],
    toolErrors: 0,
    interrupted: false,
  };
  draft.turns.push(turn);
  if (messageId !== undefined) draft.assistantTurnsByMessageId.set(messageId, turn);
  return turn;
}

function assistantBlocks(content: unknown): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

function toolUseName(block: Record<string, unknown>): string | undefined {
  if (block['type'] !== 'tool_use') return undefined;
  return nonEmptyString(block['name'])?.trim() || undefined;
}

/** Skill targets and file paths for the session (the turn's actions keep what each call did). */
function noteToolInput(draft: SessionDraft, toolName: string, input: unknown): void {
  if (!isRecord(input)) return;
  if (toolName === 'Skill') {
    const skill = nonEmptyString(input['skill'])?.trim();
    if (skill) draft.skillsUsed.add(skill);
  }
  for (const key of FILE_PATH_KEYS) {
    const filePath = nonEmptyString(input[key])?.trim();
    if (filePath) draft.filesTouched.add(filePath);
  }
}

// ----- finishing

function finishSession(draft: SessionDraft, sourcePath: string): HarvestedSession | undefined {
  const turns = finishTurns(draft.turns);
  if (turns.length === 0) return undefined;
  return {
    source: 'claude',
    sessionId: draft.sessionId,
    cwd: draft.cwd,
    branch: draft.branch,
    model: draft.model,
    startedAt: draft.startedAt,
    endedAt: draft.endedAt,
    turns,
    toolsUsed: draft.toolsUsed.values(),
    skillsUsed: draft.skillsUsed.values(),
    filesTouched: draft.filesTouched.values(),
    sourcePath,
    sourceVersion: draft.sourceVersion,
  };
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Claude Code writes ISO strings only; anything else in `timestamp` is a malformed record. */
function parseUtcMs(value: unknown): number | null {
  return typeof value === 'string' ? parseAnyUtcMs(value) : null;
}
