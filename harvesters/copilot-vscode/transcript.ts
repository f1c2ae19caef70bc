/**
 * The Copilot Chat extension's own event stream,
 * `workspaceStorage/<hash>/GitHub.copilot-chat/transcripts/<sessionId>.jsonl`: one
 * `{type, data, id, timestamp}` event per line, the Copilot CLI event schema (harvest-spec §5.3).
 * These events carry no working directory, so the workspace folder stands in for it.
 */
import { readJsonlLines } from '../../src/core/io/jsonl.js';
import { hasActionRoom, pushActions } from '../shared/actions.js';
import { copilotToolActions } from '../shared/copilot-tool-actions.js';
import type { SessionMeta } from './session.js';
import { epochMs, isOnlyTagBlocks, isRecord, nonEmptyString, OrderedSet, TimeRange } from './util.js';
import type { ParseOptions } from '../types.js';
import type { HarvestedSession, HarvestedTurn, ToolAction } from '../../src/core/session.js';

export interface TranscriptParse {
  session: HarvestedSession | undefined;
  badLines: number;
  endOffset: number;
}

const MAX_FILES_TOUCHED = 50;
/**
 * `user.message.data.source` names who wrote a message that is not the user's: a skill's hidden
 * injection, another agent, or the runtime (the same senders the Copilot CLI events use).
 */
const INJECTED_SOURCE = /^(?:skill-|agent-|system|autopilot|schedule|notification|hook)/i;

type DraftTurn = Omit<HarvestedTurn, 'seq'>;

interface TranscriptDraft {
  sessionId: string;
  cwd: string;
  branch: string;
  model: string;
  sourceVersion: string;
  times: TimeRange;
  turns: DraftTurn[];
  /** Tool errors and interrupts go to the prompt whose exchange they happened in. */
  lastUserTurn: DraftTurn | undefined;
  pendingToolErrors: number;
  pendingInterrupt: boolean;
  /** The assistant turn that tool executions without a matching request are credited to. */
  currentAssistant: DraftTurn | undefined;
  requestedToolCalls: Set<string>;
  seenEventIds: Set<string>;
  toolsUsed: OrderedSet;
  skillsUsed: OrderedSet;
  filesTouched: OrderedSet;
}

/** Reads a whole transcript. Content problems never throw; reading the file can reject. */
export function parseTranscriptFile(
  filePath: string,
  meta: SessionMeta,
  options: ParseOptions = {},
): TranscriptParse {
  const draft = newDraft(meta);
  let badLines = 0;
  let endOffset = 0;
  for (const line of readJsonlLines(filePath, 0, options)) {
    endOffset = line.endOffset;
    if (line.bad || !isRecord(line.value)) {
      badLines++;
      continue;
    }
    applyEvent(draft, line.value);
  }
  return { session: finishSession(draft, meta), badLines, endOffset };
}

function newDraft(meta: SessionMeta): TranscriptDraft {
  return {
    sessionId: meta.fallbackSessionId,
    cwd: meta.cwd,
    branch: '',
    model: '',
    sourceVersion: '',
    times: new TimeRange(),
    turns: [],
    lastUserTurn: undefined,
    pendingToolErrors: 0,
    pendingInterrupt: false,
    currentAssistant: undefined,
    requestedToolCalls: new Set(),
    seenEventIds: new Set(),
    toolsUsed: new OrderedSet(),
    skillsUsed: new OrderedSet(),
    filesTouched: new OrderedSet(MAX_FILES_TOUCHED),
  };
}

function applyEvent(draft: TranscriptDraft, event: Record<string, unknown>): void {
  // An event written twice (resume, retries) must not double its turn.
  const id = nonEmptyString(event['id']);
  if (id !== undefined) {
    if (draft.seenEventIds.has(id)) return;
    draft.seenEventIds.add(id);
  }
  const data = isRecord(event['data']) ? event['data'] : {};
  const ts = epochMs(event['timestamp']);
  draft.times.add(ts);
  if (isSubagentEvent(event, data)) return applySubagentEvent(draft, event['type'], data);
  switch (event['type']) {
    case 'session.start':
      return noteSessionStart(draft, data);
    case 'session.model_change':
      draft.model ||= nonEmptyString(data['newModel']) ?? '';
      return;
    case 'user.message':
      return addUserTurn(draft, data, ts);
    case 'assistant.message':
      return addAssistantMessage(draft, data, ts);
    case 'tool.execution_start':
      return noteToolExecution(draft, data, ts);
    case 'tool.execution_complete':
      if (data['success'] === false) noteToolError(draft);
      return;
    case 'session.error':
      return noteToolError(draft);
    case 'abort':
      return noteInterrupt(draft);
    case 'session.shutdown':
      return noteModifiedFiles(draft, data);
    case 'skill.invoked':
      return noteSkill(draft, data);
    default:
      return; // system.message, assistant.reasoning, hooks, sub-agent markers, usage…
  }
}

/** Sub-agent events carry an envelope `agentId` (newer) or `data.parentToolCallId` (older). */
function isSubagentEvent(event: Record<string, unknown>, data: Record<string, unknown>): boolean {
  return (
    nonEmptyString(event['agentId']) !== undefined || nonEmptyString(data['parentToolCallId']) !== undefined
  );
}

/** A sub-agent's tools count for the session; its prompts and answers are not the conversation's. */
function applySubagentEvent(draft: TranscriptDraft, type: unknown, data: Record<string, unknown>): void {
  if (type === 'tool.execution_start') {
    const name = nonEmptyString(data['toolName'])?.trim();
    if (name) draft.toolsUsed.add(name);
  } else if (type === 'assistant.message') {
    for (const name of requestedToolNames(data)) draft.toolsUsed.add(name);
  }
}

function noteSessionStart(draft: TranscriptDraft, data: Record<string, unknown>): void {
  draft.sessionId = nonEmptyString(data['sessionId']) ?? draft.sessionId;
  draft.sourceVersion ||= nonEmptyString(data['copilotVersion']) ?? '';
  draft.model ||= nonEmptyString(data['selectedModel']) ?? '';
  draft.times.add(epochMs(data['startTime']));
  const context = data['context'];
  if (!isRecord(context)) return;
  draft.cwd = nonEmptyString(context['cwd']) ?? draft.cwd;
  draft.branch ||= nonEmptyString(context['branch']) ?? '';
}

function addUserTurn(draft: TranscriptDraft, data: Record<string, unknown>, ts: number | null): void {
  if (isInjectedUserMessage(data)) return;
  const content = typeof data['content'] === 'string' ? data['content'] : '';
  const text = content.replaceAll('\0', '').trim();
  if (text === '' || isOnlyTagBlocks(text)) return;
  const turn: DraftTurn = {
    role: 'user',
    text,
    ts,
    toolNames: [],
    actions: [],
    toolErrors: draft.pendingToolErrors,
    interrupted: draft.pendingInterrupt,
    offset: 0,
  };
  draft.pendingToolErrors = 0;
  draft.pendingInterrupt = false;
  draft.turns.push(turn);
  draft.lastUserTurn = turn;
  draft.currentAssistant = undefined;
}

function isInjectedUserMessage(data: Record<string, unknown>): boolean {
  if (data['isAutopilotContinuation'] === true || isRecord(data['crossSession'])) return true;
  const source = nonEmptyString(data['source'])?.trim();
  return source !== undefined && INJECTED_SOURCE.test(source);
}

function addAssistantMessage(draft: TranscriptDraft, data: Record<string, unknown>, ts: number | null): void {
  const toolNames = requestedToolNames(data);
  for (const name of toolNames) draft.toolsUsed.add(name);
  const actions: ToolAction[] = [];
  for (const request of toolRequests(data)) {
    const callId = nonEmptyString(request['toolCallId']);
    if (callId !== undefined) draft.requestedToolCalls.add(callId);
    const name = nonEmptyString(request['name'])?.trim();
    if (name) pushActions(actions, copilotToolActions(name, request['arguments']));
  }
  const text = typeof data['content'] === 'string' ? data['content'].trim() : '';
  if (text === '' && toolNames.length === 0) return;
  const turn: DraftTurn = {
    role: 'assistant',
    text,
    ts,
    toolNames,
    actions,
    toolErrors: 0,
    interrupted: false,
    offset: 0,
  };
  draft.turns.push(turn);
  draft.currentAssistant = turn;
}

function toolRequests(data: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(data['toolRequests']) ? data['toolRequests'].filter(isRecord) : [];
}

function requestedToolNames(data: Record<string, unknown>): string[] {
  return toolRequests(data)
    .map((request) => nonEmptyString(request['name'])?.trim() ?? '')
    .filter((name) => name !== '');
}

/** A tool run the transcript never requested in an assistant message still names a tool. */
function noteToolExecution(draft: TranscriptDraft, data: Record<string, unknown>, ts: number | null): void {
  const name = nonEmptyString(data['toolName'])?.trim();
  if (!name) return;
  draft.toolsUsed.add(name);
  const callId = nonEmptyString(data['toolCallId']);
  if (callId !== undefined && draft.requestedToolCalls.has(callId)) return;
  if (callId !== undefined) draft.requestedToolCalls.add(callId);
  if (draft.currentAssistant === undefined) {
    draft.currentAssistant = {
      role: 'assistant',
      text: '',
      ts,
      toolNames: [],
      actions: [],
      toolErrors: 0,
      interrupted: false,
      offset: 0,
    };
    draft.turns.push(draft.currentAssistant);
  }
  draft.currentAssistant.toolNames.push(name);
  const actions = draft.currentAssistant.actions;
  if (hasActionRoom(actions)) pushActions(actions, copilotToolActions(name, data['arguments']));
}

function noteToolError(draft: TranscriptDraft): void {
  if (draft.lastUserTurn) draft.lastUserTurn.toolErrors++;
  else draft.pendingToolErrors++;
}

function noteInterrupt(draft: TranscriptDraft): void {
  if (draft.lastUserTurn) draft.lastUserTurn.interrupted = true;
  else draft.pendingInterrupt = true;
}

/** Skills preloaded by an agent's configuration were not chosen for the task, so they do not count. */
function noteSkill(draft: TranscriptDraft, data: Record<string, unknown>): void {
  if (data['trigger'] === 'context-load') return;
  const name = nonEmptyString(data['name'])?.trim();
  if (name) draft.skillsUsed.add(name);
}

function noteModifiedFiles(draft: TranscriptDraft, data: Record<string, unknown>): void {
  const changes = data['codeChanges'];
  const files = isRecord(changes) && Array.isArray(changes['filesModified']) ? changes['filesModified'] : [];
  for (const file of files) {
    const filePath = nonEmptyString(file)?.trim();
    if (filePath) draft.filesTouched.add(filePath);
  }
}

function finishSession(draft: TranscriptDraft, meta: SessionMeta): HarvestedSession | undefined {
  if (draft.turns.length === 0) return undefined;
  return {
    source: 'copilot',
    sessionId: draft.sessionId,
    cwd: draft.cwd,
    branch: draft.branch,
    model: draft.model,
    startedAt: draft.times.start,
    endedAt: draft.times.end,
    turns: draft.turns.map((turn, seq) => ({ seq, ...turn })),
    toolsUsed: draft.toolsUsed.values(),
    skillsUsed: draft.skillsUsed.values(),
    filesTouched: draft.filesTouched.values(),
    sourcePath: meta.sourcePath,
    sourceVersion: draft.sourceVersion,
  };
}
