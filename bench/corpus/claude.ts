/**
 * Claude Code: `<home>/.claude/projects/<slug>/<sessionId>.jsonl`. One record per assistant content
 * block (blocks of one API message share `message.id`), tool results as user records with a
 * structured `toolUseResult`, inline sidechains (v1.x) or `subagents/agent-*.jsonl` (v2.1).
 */
import path from 'node:path';
import type { Exchange, SessionPlan, ToolCall } from './plan.js';
import type { Rng } from './rng.js';
import { BufferedFile } from './writer.js';
import { CLAUDE_MODELS } from './words.js';

export interface WrittenSession {
  sessionId: string;
  path: string;
  bytes: number;
  files: number;
  prompts: number;
}

const VERSIONS = ['1.0.111', '1.0.90', '2.0.69', '2.1.123', '2.1.136'];
const TOOL_NAMES: Record<ToolCall['kind'], string> = {
  read: 'Read',
  bash: 'Bash',
  edit: 'Edit',
  write: 'Write',
  grep: 'Grep',
  glob: 'Glob',
  todo: 'TodoWrite',
  task: 'Task',
};

export function claudeSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export interface ClaudeWriteOptions {
  /** Continue an existing transcript (a resumed session) instead of creating a new file. */
  appendTo?: { path: string; sessionId: string; parentUuid: string | null; version: string };
}

export function writeClaudeSession(
  home: string,
  plan: SessionPlan,
  rng: Rng,
  opts: ClaudeWriteOptions = {},
): WrittenSession {
  const append = opts.appendTo;
  const sessionId = append?.sessionId ?? rng.uuid();
  const version = append?.version ?? rng.pick(VERSIONS);
  const v21 = version.startsWith('2.1');
  const model = rng.pick(CLAUDE_MODELS);
  const dir = path.join(home, '.claude', 'projects', claudeSlug(plan.cwd));
  const out =
    append !== undefined
      ? new BufferedFile(append.path, 'a')
      : new BufferedFile(path.join(dir, `${sessionId}.jsonl`));
  let files = 1;
  let subagentBytes = 0;
  let parent: string | null = append?.parentUuid ?? null;
  const env = (sidechain = false): Record<string, unknown> => ({
    parentUuid: parent,
    isSidechain: sidechain,
    userType: 'external',
    cwd: plan.cwd,
    sessionId,
    version,
    gitBranch: plan.project.branch,
    ...(v21 ? { entrypoint: 'cli' } : {}),
  });
  const emit = (record: Record<string, unknown>, ms: number, sidechain = false): string => {
    const uuid = rng.uuid();
    out.line({ ...env(sidechain), ...record, uuid, timestamp: iso(ms) });
    if (!sidechain) parent = uuid;
    return uuid;
  };
  const userText = (content: unknown, ms: number, extra: Record<string, unknown> = {}): string =>
    emit({ type: 'user', message: { role: 'user', content }, ...extra }, ms);
  const usage = (): Record<string, unknown> => ({
    input_tokens: rng.int(3, 40),
    cache_creation_input_tokens: rng.int(0, 9000),
    cache_read_input_tokens: rng.int(1000, 90000),
    output_tokens: rng.int(5, 2000),
    service_tier: 'standard',
  });
  const assistant = (blocks: unknown[], ms: number, sidechain = false): void => {
    const id = `msg_01${rng.alnum(22)}`;
    const requestId = `req_011C${rng.alnum(20)}`;
    const u = usage();
    for (const block of blocks) {
      emit(
        {
          type: 'assistant',
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model,
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage: u,
          },
          requestId,
        },
        ms,
        sidechain,
      );
      ms += rng.int(50, 900);
    }
  };

  if (append === undefined && rng.chance(0.1)) {
    for (let i = rng.int(1, 4); i > 0; i--) {
      out.line({
        type: 'summary',
        summary: `${plan.taskIds[0] ?? 'session'} follow-up ${i}`,
        leafUuid: rng.uuid(),
      });
    }
  }

  plan.exchanges.forEach((ex, index) => {
    if (index > 10 && rng.chance(0.05)) compact(ex.start - 5000);
    if (rng.chance(0.05)) slashCommand(ex.start - 3000);
    if (rng.chance(0.3)) {
      const messageId = rng.uuid();
      out.line({
        type: 'file-history-snapshot',
        messageId,
        snapshot: { messageId, trackedFileBackups: {}, timestamp: iso(ex.start) },
        isSnapshotUpdate: false,
      });
    }
    userText(
      rng.chance(0.2) ? [{ type: 'text', text: ex.prompt }] : ex.prompt,
      ex.start,
      v21 ? { promptId: rng.uuid() } : {},
    );
    writeSteps(ex);
    if (ex.final !== '') assistant([{ type: 'text', text: ex.final }], ex.end);
    else if (!ex.steps.some((s) => s.tools.some((t) => t.rejected))) {
      userText([{ type: 'text', text: '[Request interrupted by user]' }], ex.end);
    }
    if (v21 && rng.chance(0.5)) {
      emit(
        {
          type: 'system',
          subtype: 'turn_duration',
          durationMs: ex.end - ex.start,
          messageCount: ex.steps.length * 3,
          isMeta: false,
        },
        ex.end + 10,
      );
    }
  });

  function writeSteps(ex: Exchange): void {
    for (const step of ex.steps) {
      const blocks: unknown[] = [];
      if (step.thinking !== '') {
        blocks.push({
          type: 'thinking',
          thinking: v21 ? '' : step.thinking,
          signature: rng.base64(rng.int(300, 1400)),
        });
      }
      if (step.text !== '') blocks.push({ type: 'text', text: step.text });
      const ids = step.tools.map(() => `toolu_01${rng.alnum(22)}`);
      step.tools.forEach((tool, i) =>
        blocks.push({ type: 'tool_use', id: ids[i], name: TOOL_NAMES[tool.kind], input: toolInput(tool) }),
      );
      assistant(blocks, step.at);
      step.tools.forEach((tool, i) => {
        const id = ids[i] ?? '';
        if (tool.kind === 'task') sidechain(tool);
        const content = tool.kind === 'task' && v21 ? `${tool.output}\nagentId: ${rng.hex(8)}` : tool.output;
        emit(
          {
            type: 'user',
            message: {
              role: 'user',
              content: [{ tool_use_id: id, type: 'tool_result', content, is_error: tool.isError }],
            },
            toolUseResult: toolResult(tool),
            ...(v21 ? { sourceToolAssistantUUID: parent } : {}),
          },
          tool.at,
        );
        if (tool.rejected)
          userText([{ type: 'text', text: '[Request interrupted by user for tool use]' }], tool.at + 500);
      });
    }
  }

  function toolInput(tool: ToolCall): Record<string, unknown> {
    switch (tool.kind) {
      case 'read':
        return { file_path: tool.target };
      case 'bash':
        return { command: tool.target, description: `Run ${tool.target.split(' ').slice(0, 2).join(' ')}` };
      case 'edit':
        return { file_path: tool.target, old_string: tool.oldText, new_string: tool.newText };
      case 'write':
        return { file_path: tool.target, content: tool.content };
      case 'grep':
        return { pattern: tool.target, path: plan.cwd, output_mode: 'content', '-n': true };
      case 'glob':
        return { pattern: tool.target };
      case 'todo':
        return { todos: todos() };
      case 'task':
        return {
          description: tool.target,
          prompt: `${tool.target}. Report the call sites and anything unusual.`,
          subagent_type: 'general-purpose',
        };
    }
  }

  function toolResult(tool: ToolCall): unknown {
    if (tool.rejected) return `Error: ${tool.output}`;
    switch (tool.kind) {
      case 'read': {
        const numLines = tool.content.split('\n').length;
        return {
          type: 'text',
          file: {
            filePath: tool.target,
            content: tool.content,
            numLines,
            startLine: 1,
            totalLines: numLines,
          },
        };
      }
      case 'bash':
        return tool.isError
          ? `Error: ${tool.output.slice(0, 2000)}`
          : { stdout: tool.output, stderr: '', interrupted: false, isImage: false };
      case 'edit':
        return {
          filePath: tool.target,
          oldString: tool.oldText,
          newString: tool.newText,
          originalFile: tool.content,
          structuredPatch: [
            {
              oldStart: 1,
              oldLines: 3,
              newStart: 1,
              newLines: 4,
              lines: tool.newText
                .split('\n')
                .slice(0, 12)
                .map((l) => `+${l}`),
            },
          ],
          userModified: false,
          replaceAll: false,
        };
      case 'write':
        return { type: 'create', filePath: tool.target, content: tool.content, structuredPatch: [] };
      case 'grep':
        return {
          mode: 'content',
          numFiles: 0,
          filenames: [],
          content: tool.output,
          numLines: tool.output.split('\n').length,
        };
      case 'glob': {
        const filenames = tool.output.split('\n');
        return { filenames, durationMs: rng.int(2, 90), numFiles: filenames.length, truncated: false };
      }
      case 'todo':
        return { oldTodos: [], newTodos: todos() };
      case 'task':
        return {
          status: 'completed',
          prompt: tool.target,
          content: [{ type: 'text', text: tool.output }],
          totalDurationMs: rng.int(5000, 90000),
          totalTokens: rng.int(2000, 60000),
          totalToolUseCount: rng.int(1, 20),
        };
    }
  }

  function todos(): unknown[] {
    return ['Inspect the code', 'Make the change', 'Run the tests'].map((content, i) => ({
      content,
      status: i === 0 ? 'in_progress' : 'pending',
      activeForm: content.replace(/^(\w+)/, '$1ing'),
    }));
  }

  /** The sub-agent's own transcript: inline (v1.x, `isSidechain`) or its own file (v2.1). */
  function sidechain(tool: ToolCall): void {
    const records = [
      {
        type: 'user',
        message: { role: 'user', content: `${tool.target}. Report the call sites and anything unusual.` },
      },
      {
        type: 'assistant',
        message: {
          id: `msg_01${rng.alnum(22)}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'text', text: tool.output }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: usage(),
        },
      },
    ];
    if (!v21) {
      let sideParent: string | null = null;
      for (const r of records) {
        const uuid = rng.uuid();
        out.line({ ...env(true), parentUuid: sideParent, ...r, uuid, timestamp: iso(tool.at - 1000) });
        sideParent = uuid;
      }
      return;
    }
    const agentId = rng.hex(17);
    const sub = new BufferedFile(path.join(dir, sessionId, 'subagents', `agent-a${agentId}.jsonl`));
    let sideParent: string | null = null;
    for (const r of records) {
      const uuid = rng.uuid();
      sub.line({
        ...env(true),
        parentUuid: sideParent,
        agentId: `a${agentId}`,
        ...r,
        uuid,
        timestamp: iso(tool.at - 1000),
      });
      sideParent = uuid;
    }
    subagentBytes += sub.close(tool.at);
    files++;
  }

  function slashCommand(ms: number): void {
    userText(
      '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>',
      ms,
    );
    userText('<local-command-stdout></local-command-stdout>', ms + 50);
    userText(
      '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>',
      ms + 60,
      { isMeta: true },
    );
  }

  function compact(ms: number): void {
    emit(
      {
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        level: 'info',
        compactMetadata: { trigger: 'auto', preTokens: rng.int(120000, 160000) },
      },
      ms,
    );
    userText(
      `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\n${plan.taskIds.join(', ')}\n\nSummary:\n1. Primary Request and Intent: continue the work on ${plan.project.name}.`,
      ms + 100,
      { isCompactSummary: true, isVisibleInTranscriptOnly: true },
    );
  }

  const bytes = out.close(plan.end + 1000) + subagentBytes;
  return { sessionId, path: out.path, bytes, files, prompts: plan.exchanges.length };
}
