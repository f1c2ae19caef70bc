/**
 * Codex headless: `codex exec --json` in a read-only sandbox, prompt on stdin (`-`). The JSONL events
 * give the agent's final message and the turn's token usage.
 */
import type { Env } from '../../../config/paths.js';
import type { ChatProvider, ChatReply, ChatRequest } from '../chat.js';
import { cliFailure, finiteOrZero, flattenPrompt, runAgentCli } from './agent-cli.js';

export interface CodexOptions {
  binary: string;
  model: string;
  env: Env;
  timeoutMs: number;
}

interface CodexEvent {
  type?: string;
  item?: { type?: string; text?: unknown };
  usage?: { input_tokens?: unknown; output_tokens?: unknown };
  message?: unknown;
  error?: { message?: unknown };
}

export class CodexProvider implements ChatProvider {
  readonly name = 'codex';
  readonly model: string;
  readonly kind = 'agent-cli' as const;

  private readonly opts: CodexOptions;
  constructor(opts: CodexOptions) {
    this.opts = opts;
    this.model = opts.model;
  }

  async send(req: ChatRequest): Promise<ChatReply> {
    const args = ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'read-only', '--color', 'never'];
    if (this.model) args.push('-m', this.model);
    args.push('-');
    const out = await runAgentCli({
      binary: this.opts.binary,
      args,
      stdin: flattenPrompt(req.system, req.messages),
      env: this.opts.env,
      timeoutMs: this.opts.timeoutMs,
      label: 'codex',
      pathKey: 'codex_path',
    });
    let text: string | null = null;
    const usage = { inputTokens: 0, outputTokens: 0 };
    const errors: string[] = [];
    for (const line of out.stdout.split('\n')) {
      if (!line.trim().startsWith('{')) continue;
      let ev: CodexEvent;
      try {
        ev = JSON.parse(line) as CodexEvent;
      } catch {
        continue;
      }
      if (
        ev.type === 'item.completed' &&
        ev.item?.type === 'agent_message' &&
        typeof ev.item.text === 'string'
      )
        text = ev.item.text;
      else if (ev.type === 'turn.completed') {
        usage.inputTokens += finiteOrZero(ev.usage?.input_tokens);
        usage.outputTokens += finiteOrZero(ev.usage?.output_tokens);
      } else if (ev.type === 'error' && typeof ev.message === 'string') errors.push(ev.message);
      else if (ev.type === 'turn.failed' && typeof ev.error?.message === 'string')
        errors.push(ev.error.message);
    }
    if (out.code !== 0 || text === null) {
      throw cliFailure(
        'codex',
        [...errors, out.stderr, errors.length ? '' : out.stdout].join('\n'),
        out.code,
      );
    }
    return { text, usage };
  }
}
