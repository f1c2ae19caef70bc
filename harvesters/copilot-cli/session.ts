/**
 * The Copilot CLI session being built from one events file (`copilot-cli-events.ts` feeds it): its
 * turns in progress, its metadata (id, cwd, branch, model, version, files, skills) and the finished
 * `HarvestedSession`.
 */
import path from 'node:path';
import { readRegularFile } from '../../src/core/io/regular-file.js';
import { isRecord, MAX_FILES_TOUCHED, OrderedSet, trimmedString } from './common.js';
import { finishTurns } from '../shared/values.js';
import type { HarvestedSession, ToolAction } from '../../src/core/session.js';

export const EVENTS_FILE_NAME = 'events.jsonl';
const WORKSPACE_YAML = 'workspace.yaml';
const MAX_WORKSPACE_YAML_BYTES = 64 * 1024;
/** A router placeholder, not a model that answered. */
const AUTO_MODEL = 'auto';

export interface DraftTurn {
  role: 'user' | 'assistant';
  offset: number;
  textParts: string[];
  ts: number | null;
  toolNames: string[];
  actions: ToolAction[];
  toolErrors: number;
  interrupted: boolean;
  /** Streamed chunks of one assistant message share it. */
  messageId: string | undefined;
}

export interface SessionDraft {
  sessionId: string;
  sessionIdFromStart: boolean;
  cwd: string;
  branch: string;
  sourceVersion: string;
  /** The first model that answered wins over the selected one (which may be a router choice). */
  answeredModel: string;
  selectedModel: string;
  startedAt: number | null;
  endedAt: number | null;
  turns: DraftTurn[];
  lastUserTurn: DraftTurn | undefined;
  /** The assistant turn a tool call with no announcing message joins; a new agent turn ends it. */
  openAssistantTurn: DraftTurn | undefined;
  /** Errors/interrupts before any prompt in the parsed range go to the next prompt. */
  pendingToolErrors: number;
  pendingInterrupt: boolean;
  /** A tool call is named both in `toolRequests` and `tool.execution_start`; count it once. */
  creditedToolCalls: Set<string>;
  toolsUsed: OrderedSet;
  skillsUsed: OrderedSet;
  filesTouched: OrderedSet;
}

/** A file's session before its `session.start` is seen: named after the file. */
export function newDraft(filePath: string): SessionDraft {
  const sessionId = fallbackSessionId(filePath);
  return {
    sessionId,
    sessionIdFromStart: false,
    cwd: '',
    branch: '',
    sourceVersion: '',
    answeredModel: '',
    selectedModel: '',
    startedAt: null,
    endedAt: null,
    turns: [],
    lastUserTurn: undefined,
    openAssistantTurn: undefined,
    pendingToolErrors: 0,
    pendingInterrupt: false,
    creditedToolCalls: new Set(),
    toolsUsed: new OrderedSet(),
    skillsUsed: new OrderedSet(),
    filesTouched: new OrderedSet(MAX_FILES_TOUCHED),
  };
}

/** `<id>/events.jsonl` → `<id>`; legacy `<id>.jsonl` → `<id>`. */
function fallbackSessionId(filePath: string): string {
  const name = path.basename(filePath);
  if (name === EVENTS_FILE_NAME) return path.basename(path.dirname(filePath));
  return name.replace(/\.jsonl$/i, '');
}

export function newTurn(role: DraftTurn['role'], offset: number, ts: number | null): DraftTurn {
  return {
    role,
    offset,
    textParts: [],
    ts,
    toolNames: [],
    actions: [],
    toolErrors: 0,
    interrupted: false,
    messageId: undefined,
  };
}

// ----- metadata

export function noteSessionContext(draft: SessionDraft, data: Record<string, unknown>): void {
  const sessionId = trimmedString(data['sessionId']);
  if (sessionId !== undefined && !draft.sessionIdFromStart) {
    draft.sessionId = sessionId;
    draft.sessionIdFromStart = true;
  }
  const context = isRecord(data['context']) ? data['context'] : data;
  draft.cwd ||= trimmedString(context['cwd']) ?? '';
  draft.branch ||= trimmedString(context['branch']) ?? '';
  draft.sourceVersion ||= trimmedString(data['copilotVersion']) ?? '';
  noteSelectedModel(draft, data['selectedModel']);
}

export function noteSelectedModel(draft: SessionDraft, value: unknown): void {
  const model = modelName(value);
  if (model !== '') draft.selectedModel = model;
}

export function modelName(value: unknown): string {
  const model = trimmedString(value) ?? '';
  return model.toLowerCase() === AUTO_MODEL ? '' : model;
}

export function noteModifiedFiles(draft: SessionDraft, codeChanges: unknown): void {
  if (!isRecord(codeChanges) || !Array.isArray(codeChanges['filesModified'])) return;
  for (const file of codeChanges['filesModified']) {
    const filePath = trimmedString(file);
    if (filePath) draft.filesTouched.add(filePath);
  }
}

export function noteSkill(draft: SessionDraft, data: Record<string, unknown>): void {
  // Skills preloaded by an agent's configuration were not chosen for this task.
  if (data['trigger'] === 'context-load') return;
  const name = trimmedString(data['name']);
  if (name) draft.skillsUsed.add(name);
}

/** The yaml beside `events.jsonl` records the session's cwd and branch (one `key: value` a line). */
export function fillFromWorkspaceYaml(eventsPath: string, draft: SessionDraft): void {
  if (path.basename(eventsPath) !== EVENTS_FILE_NAME) return;
  const yamlPath = path.join(path.dirname(eventsPath), WORKSPACE_YAML);
  let text: string;
  try {
    text = readRegularFile(yamlPath, MAX_WORKSPACE_YAML_BYTES).toString('utf8');
  } catch {
    return; // Optional metadata; the events are the transcript.
  }
  draft.cwd ||= yamlScalar(text, 'cwd');
  draft.branch ||= yamlScalar(text, 'branch');
}

function yamlScalar(text: string, key: string): string {
  const match = new RegExp(`^${key}:[ \\t]*(.*?)[ \\t]*$`, 'm').exec(text);
  const value = match?.[1] ?? '';
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return (quoted ? (quoted[2] ?? '') : value).trim();
}

// ----- finishing

export function finishSession(draft: SessionDraft, sourcePath: string): HarvestedSession | undefined {
  const turns = finishTurns(draft.turns);
  if (turns.length === 0) return undefined;
  return {
    source: 'copilot-cli',
    sessionId: draft.sessionId,
    cwd: draft.cwd,
    branch: draft.branch,
    model: draft.answeredModel || draft.selectedModel,
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
