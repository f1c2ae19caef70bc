/**
 * VS Code Copilot Chat (legacy whole-document format): `<home>/.config/Code/User/workspaceStorage/
 * <hash>/chatSessions/<id>.json` plus `<hash>/workspace.json` naming the folder. Bulk sits in
 * `result.metadata` (rendered prompts with attached files, tool call results).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { WrittenSession } from './claude.js';
import type { Exchange, SessionPlan, ToolCall } from './plan.js';
import type { Rng } from './rng.js';
import { writeSmallFile } from './writer.js';
import { COPILOT_MODELS } from './words.js';

const TOOL_IDS: Record<ToolCall['kind'], string> = {
  read: 'copilot_readFile',
  bash: 'run_in_terminal',
  edit: 'copilot_replaceString',
  write: 'copilot_createFile',
  grep: 'copilot_findTextInFiles',
  glob: 'copilot_findFiles',
  todo: 'manage_todo_list',
  task: 'runSubagent',
};

const AGENT = {
  extensionId: { value: 'GitHub.copilot-chat', _lower: 'github.copilot-chat' },
  extensionVersion: '0.31.5',
  publisherDisplayName: 'GitHub',
  extensionPublisherId: 'GitHub',
  extensionDisplayName: 'GitHub Copilot Chat',
  id: 'github.copilot.editsAgent',
  description: 'Edit files in your workspace in agent mode',
  when: 'config.chat.agent.enabled',
  metadata: { themeIcon: { id: 'tools' }, hasFollowups: false, supportIssueReporting: false },
  name: 'agent',
  fullName: 'GitHub Copilot',
  isDefault: true,
  locations: ['panel'],
  modes: ['agent'],
  slashCommands: [],
  disambiguation: [],
};

function fileUri(p: string): Record<string, unknown> {
  return { $mid: 1, fsPath: p, external: `file://${p}`, path: p, scheme: 'file' };
}

export function workspaceHash(folderUri: string): string {
  return createHash('md5').update(folderUri).digest('hex');
}

/** `seenWorkspaces` avoids rewriting the same workspace.json; returns bytes of new files too. */
export function writeCopilotSession(
  home: string,
  plan: SessionPlan,
  rng: Rng,
  seenWorkspaces: Set<string>,
): WrittenSession {
  const folder = `file://${plan.cwd}`;
  const wsDir = path.join(home, '.config', 'Code', 'User', 'workspaceStorage', workspaceHash(folder));
  let bytes = 0;
  let files = 1;
  if (!seenWorkspaces.has(wsDir)) {
    seenWorkspaces.add(wsDir);
    bytes += writeSmallFile(path.join(wsDir, 'workspace.json'), JSON.stringify({ folder }), plan.start);
    files++;
  }
  const sessionId = rng.uuid();
  const model = rng.pick(COPILOT_MODELS);
  const baseUri = { $mid: 1, path: `${plan.cwd}/`, scheme: 'file' };
  const md = (value: string): Record<string, unknown> => ({
    value,
    supportThemeIcons: false,
    supportHtml: false,
    baseUri,
  });

  const request = (ex: Exchange, first: boolean): Record<string, unknown> => {
    const response: unknown[] = [];
    const rounds: unknown[] = [];
    const results: Record<string, unknown> = {};
    for (const step of ex.steps) {
      if (step.thinking !== '') response.push({ kind: 'thinking', value: step.thinking, id: rng.uuid() });
      if (step.text !== '') response.push(md(`${step.text} `));
      const calls: unknown[] = [];
      for (const tool of step.tools) {
        const toolCallId = rng.uuid();
        const toolId = TOOL_IDS[tool.kind];
        response.push({ kind: 'prepareToolInvocation', toolName: toolId });
        response.push({
          kind: 'toolInvocationSerialized',
          invocationMessage: {
            value: `Using "${toolId}" on ${tool.target.slice(0, 80)}`,
            supportThemeIcons: false,
            supportHtml: false,
            uris: {},
          },
          pastTenseMessage: {
            value: `Ran ${toolId}`,
            supportThemeIcons: false,
            supportHtml: false,
            uris: {},
          },
          isConfirmed: { type: tool.rejected ? 0 : 1 },
          isComplete: true,
          source: { type: 'internal', label: 'Built-In' },
          toolCallId,
          toolId,
          ...(tool.kind === 'grep'
            ? {
                resultDetails: [
                  {
                    uri: fileUri(plan.project.root + '/' + (plan.project.files[0] ?? 'src/index.ts')),
                    range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 20 },
                  },
                ],
              }
            : {}),
        });
        if (tool.kind === 'edit' || tool.kind === 'write') {
          response.push({ kind: 'codeblockUri', uri: fileUri(tool.target), isEdit: true });
          response.push({
            kind: 'textEditGroup',
            uri: fileUri(tool.target),
            edits: [
              [
                {
                  text: tool.kind === 'write' ? tool.content : tool.newText,
                  range: { startLineNumber: 1, startColumn: 1, endLineNumber: 12, endColumn: 1 },
                },
              ],
              [],
            ],
            done: true,
          });
          response.push({ id: rng.uuid(), kind: 'undoStop' });
        }
        const args =
          tool.kind === 'bash'
            ? { command: tool.target, explanation: 'Run it', isBackground: false }
            : { filePath: tool.target, query: tool.target };
        calls.push({ name: toolId, arguments: JSON.stringify(args), id: toolCallId });
        results[toolCallId] = {
          $mid: 20,
          content: [{ $mid: 21, value: tool.kind === 'read' ? tool.content : tool.output }],
        };
      }
      rounds.push({ response: step.text, toolCalls: calls, toolInputRetry: 0, id: rng.uuid() });
    }
    if (ex.final !== '') {
      const cut = ex.final.indexOf(' ', Math.floor(ex.final.length / 2));
      if (ex.final.length > 200 && cut > 0 && rng.chance(0.5)) {
        response.push(
          md(ex.final.slice(0, cut + 1)),
          {
            kind: 'inlineReference',
            inlineReference: fileUri(`${plan.project.root}/${rng.pick(plan.project.files)}`),
          },
          md(ex.final.slice(cut)),
        );
      } else response.push(md(ex.final));
    }
    const attached = ex.steps.flatMap((s) => s.tools).find((t) => t.kind === 'read');
    const rendered = `${attached !== undefined ? `<attachments>\n<attachment id="${path.basename(attached.target)}" filePath="${attached.target}">\n${attached.content}\n</attachment>\n</attachments>\n` : ''}<context>\nThe current date is ${new Date(ex.start).toDateString()}.\n</context>\n<userRequest>\n${ex.prompt}\n</userRequest>\n`;
    const failed = ex.final !== '' && rng.chance(0.02);
    const responseId = `response_${rng.uuid()}`;
    return {
      requestId: `request_${rng.uuid()}`,
      message: {
        parts: [
          {
            range: { start: 0, endExclusive: ex.prompt.length },
            editorRange: {
              startLineNumber: 1,
              startColumn: 1,
              endLineNumber: 1,
              endColumn: ex.prompt.length + 1,
            },
            text: ex.prompt,
            kind: 'text',
          },
        ],
        text: ex.prompt,
      },
      variableData: {
        variables:
          attached !== undefined
            ? [
                {
                  kind: 'file',
                  value: fileUri(attached.target),
                  id: `file://${attached.target}`,
                  name: path.basename(attached.target),
                },
              ]
            : [],
      },
      response,
      responseId,
      result: {
        timings: { firstProgress: rng.int(800, 6000), totalElapsed: ex.end - ex.start },
        ...(failed
          ? {
              errorDetails: {
                code: 'failed',
                message: 'Sorry, your request failed. Please try again.',
                responseIsIncomplete: true,
              },
            }
          : {}),
        metadata: {
          codeBlocks: [],
          renderedUserMessage: [
            { type: 1, text: rendered },
            { type: 3, cacheType: 'ephemeral' },
          ],
          ...(first
            ? {
                renderedGlobalContext: [
                  {
                    type: 1,
                    text: `<environment_info>\nThe user's current OS is: Linux\nThe user's default shell is: "bash".\n</environment_info>\n<workspace_info>\nI am working in a workspace with the following folders:\n- ${plan.cwd}\nI am working in a workspace that has the following structure:\n\`\`\`\n${plan.project.files.join('\n')}\n\`\`\`\n</workspace_info>\n`,
                  },
                ],
              }
            : {}),
          toolCallRounds: rounds,
          toolCallResults: results,
          modelMessageId: rng.uuid(),
          responseId: rng.uuid(),
          sessionId: rng.uuid(),
          agentId: 'github.copilot.editsAgent',
        },
      },
      responseMarkdownInfo: [],
      followups: [],
      isCanceled: ex.interrupted,
      agent: AGENT,
      contentReferences: [],
      codeCitations: [],
      timestamp: ex.start,
      modelId: model,
      modelState: { value: failed ? 3 : 1, completedAt: ex.end },
    };
  };

  const doc = {
    version: 3,
    requesterUsername: 'dev',
    requesterAvatarIconUri: {
      $mid: 1,
      path: '/u/1000',
      scheme: 'https',
      authority: 'avatars.githubusercontent.com',
      query: 'v=4',
    },
    responderUsername: 'GitHub Copilot',
    responderAvatarIconUri: { id: 'copilot' },
    initialLocation: 'panel',
    sessionId,
    creationDate: plan.start,
    isImported: false,
    lastMessageDate: plan.end,
    customTitle: `${plan.taskIds[0] ?? 'chat'} in ${plan.project.name}`,
    requests: plan.exchanges.map((ex, i) => request(ex, i === 0)),
  };
  const file = path.join(wsDir, 'chatSessions', `${sessionId}.json`);
  bytes += writeSmallFile(file, JSON.stringify(doc, null, rng.chance(0.5) ? 2 : undefined), plan.end + 1000);
  return { sessionId, path: file, bytes, files, prompts: plan.exchanges.length };
}
