/**
 * Codex (current envelope format): `<home>/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`.
 * Every prompt and answer is written twice (response_item message + event_msg), tool outputs are
 * `function_call_output` / `custom_tool_call_output`, reasoning carries encrypted blobs.
 */
import path from 'node:path';
import type { WrittenSession } from './claude.js';
import type { SessionPlan, ToolCall } from './plan.js';
import type { Rng } from './rng.js';
import { BufferedFile } from './writer.js';
import { CODEX_MODELS } from './words.js';

const CLI_VERSIONS = ['0.60.1', '0.77.0', '0.99.0', '0.135.0'];

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A v7-style id: time-ordered prefix, random rest. */
function uuid7(rng: Rng, ms: number): string {
  const t = ms.toString(16).padStart(12, '0');
  const r = rng.hex(19);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${r.slice(0, 3)}-${'89ab'[rng.int(0, 3)] ?? '8'}${r.slice(3, 6)}-${r.slice(6, 18)}`;
}

/** Shared, long instruction text every session starts with (it is most of a small session's size). */
export function baseInstructions(prose: (n: number) => string): string {
  const parts = [
    "You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI on a user's computer.",
    '',
  ];
  for (let i = 0; i < 14; i++)
    parts.push(
      `## ${['General', 'Editing constraints', 'Planning', 'Sandbox and approvals', 'Presenting your work', 'Testing'][i % 6]}`,
      '',
      prose(10),
      '',
    );
  return parts.join('\n');
}

export function writeCodexSession(
  home: string,
  plan: SessionPlan,
  rng: Rng,
  instructions: string,
): WrittenSession {
  const id = uuid7(rng, plan.start);
  const d = new Date(plan.start);
  const stamp = iso(plan.start).slice(0, 19).replace(/:/g, '-');
  const file = path.join(
    home,
    '.codex',
    'sessions',
    String(d.getUTCFullYear()),
    String(d.getUTCMonth() + 1).padStart(2, '0'),
    String(d.getUTCDate()).padStart(2, '0'),
    `rollout-${stamp}-${id}.jsonl`,
  );
  const out = new BufferedFile(file);
  const model = rng.pick(CODEX_MODELS);
  const rel = (abs: string): string =>
    abs.startsWith(plan.project.root + '/') ? abs.slice(plan.project.root.length + 1) : abs;
  const line = (ms: number, type: string, payload: unknown): void =>
    out.line({ timestamp: iso(ms), type, payload });
  const message = (ms: number, role: string, text: string, phase?: string): void =>
    line(ms, 'response_item', {
      type: 'message',
      role,
      content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
      ...(phase !== undefined ? { phase } : {}),
    });
  let totalTokens = 0;
  const tokenCount = (ms: number): void => {
    const last = rng.int(2000, 40000);
    totalTokens += last;
    line(ms, 'event_msg', {
      type: 'token_count',
      info: {
        total_token_usage: {
          input_tokens: totalTokens,
          cached_input_tokens: Math.floor(totalTokens * 0.8),
          output_tokens: rng.int(10, 3000),
          reasoning_output_tokens: rng.int(0, 2000),
          total_tokens: totalTokens,
        },
        last_token_usage: {
          input_tokens: last,
          cached_input_tokens: Math.floor(last * 0.8),
          output_tokens: rng.int(10, 900),
          reasoning_output_tokens: 0,
          total_tokens: last,
        },
        model_context_window: 272000,
      },
      rate_limits: {
        primary: {
          used_percent: rng.int(0, 90),
          window_minutes: 300,
          resets_at: Math.floor(ms / 1000) + 9000,
        },
        secondary: null,
      },
    });
  };

  line(plan.start, 'session_meta', {
    id,
    timestamp: iso(plan.start),
    cwd: plan.cwd,
    originator: 'codex_cli_rs',
    cli_version: rng.pick(CLI_VERSIONS),
    instructions: null,
    source: 'cli',
    model_provider: 'openai',
    base_instructions: { text: instructions },
    git: {
      commit_hash: plan.project.headCommit,
      branch: plan.project.branch,
      repository_url: `git@github.com:${plan.project.repo}.git`,
    },
  });
  message(
    plan.start,
    'developer',
    '<permissions instructions>\nFilesystem sandboxing defines which files can be read or written. `sandbox_mode` is `workspace-write`: The sandbox permits reading files, and editing files in `cwd` and `writable_roots`.\nApprovals: `on-request`.\n</permissions instructions>',
  );
  if (rng.chance(0.5)) {
    message(
      plan.start,
      'user',
      `# AGENTS.md instructions for ${plan.cwd}\n\n<INSTRUCTIONS>\n- Use ${plan.pm} for scripts.\n- Keep functions small; run the tests before you finish.\n</INSTRUCTIONS>`,
    );
  }
  message(
    plan.start,
    'user',
    `<environment_context>\n  <cwd>${plan.cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>zsh</shell>\n</environment_context>`,
  );

  for (const ex of plan.exchanges) {
    const turnId = uuid7(rng, ex.start);
    line(ex.start, 'turn_context', {
      turn_id: turnId,
      cwd: plan.cwd,
      approval_policy: 'on-request',
      sandbox_policy: {
        type: 'workspace-write',
        network_access: false,
        exclude_tmpdir_env_var: false,
        exclude_slash_tmp: false,
      },
      model,
      effort: 'high',
      summary: 'auto',
    });
    line(ex.start, 'event_msg', { type: 'task_started', turn_id: turnId, model_context_window: 272000 });
    if (rng.chance(0.3)) {
      line(ex.start, 'response_item', {
        type: 'ghost_snapshot',
        ghost_commit: {
          id: rng.hex(40),
          parent: plan.project.headCommit,
          preexisting_untracked_files: [],
          preexisting_untracked_dirs: [],
        },
      });
    }
    message(ex.start, 'user', ex.prompt);
    line(ex.start, 'event_msg', {
      type: 'user_message',
      message: ex.prompt,
      images: [],
      local_images: [],
      text_elements: [],
    });
    tokenCount(ex.start + 200);
    for (const step of ex.steps) {
      if (step.thinking !== '') {
        const title = `**${step.thinking.split(' ').slice(0, 3).join(' ')}**`;
        line(step.at, 'event_msg', { type: 'agent_reasoning', text: title });
        line(step.at, 'response_item', {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: title }],
          content: null,
          encrypted_content: 'gAAAAAB' + rng.base64url(rng.int(800, 4000)),
        });
      }
      if (step.text !== '') {
        line(step.at, 'event_msg', { type: 'agent_message', message: step.text, phase: 'commentary' });
        message(step.at, 'assistant', step.text, 'commentary');
      }
      for (const tool of step.tools) {
        const callId = `call_${rng.alnum(24)}`;
        if (tool.kind === 'edit' || tool.kind === 'write') {
          const body =
            tool.kind === 'write'
              ? `*** Add File: ${rel(tool.target)}\n${prefix(tool.content, '+')}`
              : `*** Update File: ${rel(tool.target)}\n@@\n${prefix(tool.oldText, '-')}\n${prefix(tool.newText, '+')}`;
          line(tool.at, 'response_item', {
            type: 'custom_tool_call',
            status: 'completed',
            call_id: callId,
            name: 'apply_patch',
            input: `*** Begin Patch\n${body}\n*** End Patch`,
          });
          const result = tool.rejected
            ? { output: 'patch rejected by user', metadata: { exit_code: 1, duration_seconds: 0 } }
            : {
                output: `Success. Updated the following files:\n${tool.kind === 'write' ? 'A' : 'M'} ${rel(tool.target)}\n`,
                metadata: { exit_code: 0, duration_seconds: 0.0 },
              };
          line(tool.at, 'response_item', {
            type: 'custom_tool_call_output',
            call_id: callId,
            output: JSON.stringify(result),
          });
        } else if (tool.kind === 'todo') {
          line(tool.at, 'response_item', {
            type: 'function_call',
            name: 'update_plan',
            arguments: JSON.stringify({
              plan: [
                { step: 'Inspect the code', status: 'in_progress' },
                { step: 'Make the change', status: 'pending' },
              ],
            }),
            call_id: callId,
          });
          line(tool.at, 'response_item', {
            type: 'function_call_output',
            call_id: callId,
            output: 'Plan updated',
          });
        } else {
          line(tool.at, 'response_item', {
            type: 'function_call',
            name: 'shell_command',
            arguments: JSON.stringify({ command: shellCommand(tool), workdir: plan.cwd, timeout_ms: 120000 }),
            call_id: callId,
          });
          const output = tool.kind === 'read' ? tool.content : tool.output;
          line(tool.at, 'response_item', {
            type: 'function_call_output',
            call_id: callId,
            output: `Exit code: ${tool.exitCode}\nWall time: ${rng.int(0, 40)} seconds\nOutput:\n${output}`,
          });
        }
      }
      tokenCount(step.at + 500);
    }
    if (ex.final === '') {
      line(ex.end, 'event_msg', { type: 'turn_aborted', reason: 'interrupted' });
      continue;
    }
    line(ex.end, 'event_msg', { type: 'agent_message', message: ex.final, phase: 'final_answer' });
    message(ex.end, 'assistant', ex.final, 'final_answer');
    tokenCount(ex.end + 100);
    line(ex.end + 200, 'event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: ex.final });
  }
  const bytes = out.close(plan.end + 1000);
  return { sessionId: id, path: file, bytes, files: 1, prompts: plan.exchanges.length };
}

function prefix(text: string, mark: string): string {
  return text
    .split('\n')
    .map((l) => mark + l)
    .join('\n');
}

function shellCommand(tool: ToolCall): string {
  switch (tool.kind) {
    case 'read':
      return `sed -n '1,400p' ${tool.target}`;
    case 'grep':
      return `rg -n "${tool.target}"`;
    case 'glob':
      return 'rg --files';
    case 'task':
      return `rg -n "${tool.target.split(' ')[2] ?? ''}" -S`;
    default:
      return tool.target;
  }
}
