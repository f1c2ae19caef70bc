#!/usr/bin/env node
/**
 * A fake `claude` or `codex` executable: `node fake-agent.mjs claude|codex <the CLI's own args>`.
 * Reads the prompt from stdin, logs {flavor, argv, cwd, stdin} as one JSON line to $FAKE_AGENT_LOG, and
 * prints what the real CLI prints (claude: one JSON result; codex: JSONL events). FAKE_AGENT_AUTH_FAIL=1
 * makes it fail the way a logged-out CLI does.
 */
import { appendFileSync, readdirSync } from 'node:fs';
import process from 'node:process';
import { reply } from './brain.mjs';

const [flavor, ...args] = process.argv.slice(2);
let stdin = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) stdin += chunk;
if (process.env.FAKE_AGENT_LOG) {
  const cwdEntries = readdirSync(process.cwd()).length;
  appendFileSync(
    process.env.FAKE_AGENT_LOG,
    `${JSON.stringify({ flavor, argv: args, cwd: process.cwd(), cwdEntries, stdin })}\n`,
  );
}
const authFail = process.env.FAKE_AGENT_AUTH_FAIL === '1';
const text = reply(stdin);
const usage = { input_tokens: Math.ceil(stdin.length / 4), output_tokens: Math.ceil(text.length / 4) };
if (flavor === 'claude') {
  if (authFail) {
    process.stdout.write(
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: true,
        result: 'Invalid API key · Please run /login',
      }),
    );
    process.exit(1);
  }
  process.stdout.write(
    JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: text,
      total_cost_usd: 0.001,
      usage,
    }),
  );
} else {
  if (authFail) {
    process.stdout.write(
      `${JSON.stringify({ type: 'error', message: 'unexpected status 401 Unauthorized' })}\n`,
    );
    process.exit(1);
  }
  const events = [
    { type: 'thread.started', thread_id: 't1' },
    { type: 'turn.started' },
    { type: 'item.completed', item: { id: 'i1', type: 'agent_message', text } },
    { type: 'turn.completed', usage: { ...usage, cached_input_tokens: 0 } },
  ];
  for (const e of events) process.stdout.write(`${JSON.stringify(e)}\n`);
}
