/**
 * Claude Code headless: `claude -p --output-format json` with every built-in tool off and slash
 * commands disabled; the prompt arrives on stdin. The JSON result carries the answer, token usage and
 * the run's cost.
 */
import type { Env } from '../../../config/paths.js';
import type { ChatProvider, ChatReply, ChatRequest } from '../chat.js';
import { cliFailure, finiteOrZero, flattenPrompt, runAgentCli } from './agent-cli.js';

export interface ClaudeCodeOptions {
  binary: string;
  model: string;
  env: Env;
  timeoutMs: number;
}

interface ClaudeResult {
  is_error?: boolean;
  result?: unknown;
  total_cost_usd?: unknown;
  usage?: { input_tokens?: unknown; output_tokens?: unknown; cache_read_input_tokens?: unknown };
}

export class ClaudeCodeProvider implements ChatProvider {
  readonly name = 'claude-code';
  readonly model: string;
  readonly kind = 'agent-cli' as const;

  private readonly opts: ClaudeCodeOptions;
  constructor(opts: ClaudeCodeOptions) {
    this.opts = opts;
    this.model = opts.model;
  }

  async send(req: ChatRequest): Promise<ChatReply> {
    const args = ['-p', '--output-format', 'json', '--tools', '', '--disable-slash-commands'];
    if (this.model) args.push('--model', this.model);
    const out = await runAgentCli({
      binary: this.opts.binary,
      args,
      stdin: flattenPrompt(req.system, req.messages),
      env: this.opts.env,
      timeoutMs: this.opts.timeoutMs,
      label: 'claude-code',
      pathKey: 'claude_path',
    });
    let parsed: ClaudeResult | null;
    try {
      parsed = JSON.parse(out.stdout.trim()) as ClaudeResult;
    } catch {
      parsed = null;
    }
    if (out.code !== 0 || parsed === null || parsed.is_error === true || typeof parsed.result !== 'string') {
      const said =
        parsed && typeof parsed.result === 'string' ? parsed.result : `${out.stdout}\n${out.stderr}`;
      throw cliFailure('claude-code', said, out.code);
    }
    return {
      text: parsed.result,
      usage: {
        inputTokens:
          finiteOrZero(parsed.usage?.input_tokens) + finiteOrZero(parsed.usage?.cache_read_input_tokens),
        outputTokens: finiteOrZero(parsed.usage?.output_tokens),
      },
      ...(typeof parsed.total_cost_usd === 'number' ? { reportedCostUsd: parsed.total_cost_usd } : {}),
    };
  }
}
