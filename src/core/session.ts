/** A normalised agent session as every stage after the harvest sees it: its turns and what the agent did. */
/** The transcript sources we read. */
export type SourceId =
  | 'claude'
  | 'codex'
  | 'copilot'
  | 'copilot-cli'
  | 'gemini'
  | 'pi'
  | 'cline'
  | 'roo'
  | 'cursor-cli'
  | 'aider'
  | 'opencode'
  | 'goose'
  | 'cursor-ide';

/** A transcript file found on disk. */
export interface SourceFile {
  source: SourceId;
  path: string;
  size: number;
  mtimeMs: number;
  inode: number;
}

/**
 * What one tool call of the agent did, as far as mining needs it: the command it ran, the file it read,
 * changed or created, or the text it searched for. Commands and file text are kept (capped, and
 * redacted by the core before storing) because the commands an agent runs and the files it touches say
 * which kind of task a session is, and the difference between a rejected answer and the one that
 * followed says what the user wanted instead. Tool outputs are never kept.
 */
export type ActionKind = 'run' | 'read' | 'edit' | 'write' | 'delete' | 'search' | 'other';

export interface ToolAction {
  kind: ActionKind;
  /** The tool's own name (`Bash`, `shell_command`, `run_in_terminal`, `apply_patch`, an MCP tool...). */
  tool: string;
  /**
   * `run`: the command line as the agent wrote it; `read`/`edit`/`write`/`delete`: the file path;
   * `search`: the pattern or query; `other`: ''.
   */
  target: string;
  /** `edit`/`write`: the text the call put into the file (`new_string`, `content`, `+` lines); else ''. */
  added: string;
  /** `edit`: the text it replaced (`old_string`, `-` lines of a patch); else ''. */
  removed: string;
}

export interface HarvestedTurn {
  /** 0-based position in the session, in file order. */
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  /** UTC epoch ms, or null when the record had no usable timestamp. */
  ts: number | null;
  /** Tool names the assistant called in this turn (assistant turns only). */
  toolNames: string[];
  /** What the assistant's tool calls in this turn did, in call order (assistant turns only). */
  actions: ToolAction[];
  /** Number of tool results in this (user) turn that reported an error. */
  toolErrors: number;
  /** The user interrupted the assistant or rejected a tool call in this turn. */
  interrupted: boolean;
  /**
   * Byte offset of the first record of this turn in the source file (0 for formats that are not
   * append-only). The core resumes an incremental parse from the last stored turn's offset, so that
   * turn is re-read whole and newer lines are appended after it.
   */
  offset: number;
}

export interface HarvestedSession {
  source: SourceId;
  /** The source's own session id. */
  sessionId: string;
  /** Working directory recorded in the transcript ('' when none). */
  cwd: string;
  branch: string;
  model: string;
  /** UTC epoch ms of the first and last timestamped record. */
  startedAt: number | null;
  endedAt: number | null;
  turns: HarvestedTurn[];
  toolsUsed: string[];
  skillsUsed: string[];
  filesTouched: string[];
  sourcePath: string;
  /** Version of the agent that wrote the transcript, when recorded. */
  sourceVersion: string;
  /**
   * Only the prompts are known (Gemini CLI's `logs.json`, which outlives the chat files its retention
   * deletes): such a copy never replaces the session another file of the source stored.
   */
  promptsOnly?: boolean;
}
