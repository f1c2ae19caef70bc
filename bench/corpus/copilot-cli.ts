/**
 * GitHub Copilot CLI: `<home>/.copilot/session-state/<uuid>/events.jsonl` (event stream, one event
 * per line, chained by `parentId`) plus a small `workspace.yaml`.
 */
import path from 'node:path';
import type { WrittenSession } from './claude.js';
import type { SessionPlan, ToolCall } from './plan.js';
import type { Rng } from './rng.js';
import { BufferedFile, writeSmallFile } from './writer.js';
import { CLI_MODELS } from './words.js';

const TOOL_NAMES: Record<ToolCall['kind'], string> = {
  read: 'view',
  bash: 'bash',
  edit: 'edit',
  write: 'create',
  grep: 'grep',
  glob: 'glob',
  todo: 'update_todo',
  task: 'task',
};

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function toolArgs(tool: ToolCall): Record<string, unknown> {
  switch (tool.kind) {
    case 'bash':
      return { command: tool.target, description: 'Run command', initial_wait: 30 };
    case 'edit':
      return { path: tool.target, old_str: tool.oldText, new_str: tool.newText };
    case 'write':
      return { path: tool.target, file_text: tool.content };
    case 'grep':
    case 'glob':
      return { pattern: tool.target };
    default:
      return { path: tool.target };
  }
}

export function writeCopilotCliSession(home: string, plan: SessionPlan, rng: Rng): WrittenSession {
  const sessionId = rng.uuid();
  const dir = path.join(home, '.copilot', 'session-state', sessionId);
  const out = new BufferedFile(path.join(dir, 'events.jsonl'));
  const model = rng.pick(CLI_MODELS);
  let parentId: string | null = null;
  const event = (ms: number, type: string, data: Record<string, unknown>): void => {
    const id = rng.uuid();
    out.line({ type, data, id, timestamp: iso(ms), parentId });
    parentId = id;
  };
  const p = plan.project;
  event(plan.start, 'session.start', {
    sessionId,
    version: 1,
    producer: 'copilot-agent',
    copilotVersion: rng.pick(['1.0.45', '1.0.77', '0.0.421']),
    startTime: iso(plan.start),
    selectedModel: model,
    context: {
      cwd: plan.cwd,
      gitRoot: p.root,
      branch: p.branch,
      headCommit: p.headCommit,
      repository: p.repo,
      hostType: 'github',
      repositoryHost: 'github.com',
      baseCommit: p.headCommit,
    },
    alreadyInUse: false,
    remoteSteerable: false,
  });
  event(plan.start + 500, 'session.model_change', { newModel: model, previousModel: 'auto' });
  if (rng.chance(0.2))
    event(plan.start + 800, 'session.info', {
      infoType: 'folder_trust',
      message: `Folder ${plan.cwd} has been added to trusted folders.`,
    });
  const modified = new Set<string>();
  plan.exchanges.forEach((ex, turn) => {
    const interactionId = rng.uuid();
    if (turn === 0 && rng.chance(0.3)) {
      event(ex.start - 100, 'system.message', {
        content: `You are the GitHub Copilot CLI, a terminal assistant. Current working directory: ${plan.cwd}.`,
        role: 'system',
        interactionId,
      });
    }
    event(ex.start, 'user.message', {
      content: ex.prompt,
      transformedContent: `<current_datetime>${iso(ex.start)}</current_datetime>\n\n${ex.prompt}\n\n<reminder>\nWhen you have finished, summarize the changes.\n</reminder>`,
      attachments: [],
      interactionId,
    });
    event(ex.start + 100, 'assistant.turn_start', { turnId: String(turn), interactionId });
    for (const step of ex.steps) {
      if (step.thinking !== '')
        event(step.at, 'assistant.reasoning', { reasoningId: rng.uuid(), content: step.thinking });
      const ids = step.tools.map(() => `toolu_${rng.alnum(24)}`);
      event(step.at, 'assistant.message', {
        messageId: rng.uuid(),
        content: step.text,
        toolRequests: step.tools.map((tool, i) => ({
          toolCallId: ids[i],
          name: TOOL_NAMES[tool.kind],
          arguments: toolArgs(tool),
          type: 'function',
          intentionSummary: tool.target.slice(0, 60),
        })),
        interactionId,
        turnId: String(turn),
        model,
        outputTokens: rng.int(10, 2000),
      });
      step.tools.forEach((tool, i) => {
        const toolCallId = ids[i] ?? '';
        event(tool.at - 200, 'tool.execution_start', {
          toolCallId,
          toolName: TOOL_NAMES[tool.kind],
          arguments: toolArgs(tool),
          turnId: String(turn),
        });
        const content = tool.kind === 'read' ? tool.content : tool.output;
        event(tool.at, 'tool.execution_complete', {
          toolCallId,
          success: !tool.isError,
          result: { content, detailedContent: tool.kind === 'edit' ? tool.newText : null },
          interactionId,
          turnId: String(turn),
          model,
          toolTelemetry: {
            metrics: { durationMs: rng.int(3, 9000) },
            properties: { tool: TOOL_NAMES[tool.kind] },
          },
        });
        if ((tool.kind === 'edit' || tool.kind === 'write') && !tool.rejected) modified.add(tool.target);
      });
    }
    if (ex.final === '') {
      event(ex.end, 'abort', { reason: 'user initiated' });
      return;
    }
    if (rng.chance(0.01))
      event(ex.end - 100, 'session.error', {
        errorType: 'query',
        message: 'Request failed with status 503',
        statusCode: 503,
      });
    event(ex.end, 'assistant.message', {
      messageId: rng.uuid(),
      content: ex.final,
      toolRequests: [],
      interactionId,
      turnId: String(turn),
      model,
      outputTokens: rng.int(50, 2000),
    });
    event(ex.end + 100, 'assistant.turn_end', { turnId: String(turn) });
  });
  event(plan.end + 500, 'session.shutdown', {
    shutdownType: 'routine',
    sessionStartTime: plan.start,
    totalPremiumRequests: plan.exchanges.length,
    currentModel: model,
    codeChanges: { linesAdded: rng.int(0, 400), linesRemoved: rng.int(0, 200), filesModified: [...modified] },
  });
  let bytes = out.close(plan.end + 1000);
  const summary = `${plan.taskIds[0] ?? 'chat'} in ${p.name}`;
  bytes += writeSmallFile(
    path.join(dir, 'workspace.yaml'),
    `id: ${sessionId}\ncwd: ${plan.cwd}\ngit_root: ${p.root}\nrepository: ${p.repo}\nbranch: ${p.branch}\nsummary: "${summary}"\ncreated_at: ${iso(plan.start)}\nupdated_at: ${iso(plan.end)}\n`,
    plan.end + 1000,
  );
  return { sessionId, path: out.path, bytes, files: 2, prompts: plan.exchanges.length };
}
