/**
 * A small generated corpus with known planted values, for the redaction report: Claude Code and Codex
 * transcripts whose prompts, replies, shell commands and edit texts carry fake credentials (built-in
 * kinds) and matches of a user's `redact_patterns`. Every value is returned with its source and kind, so a
 * test derives the expected counts from what was written, never from a hard-coded table.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The user patterns the planted values are meant for (the config a test writes). */
export const CORPUS_PATTERNS = [{ name: 'acme-id', regex: 'ACME-[0-9]{6}' }, 'CASE-[0-9]{4}-[A-Z]{2}'];

export type PlantedKind = 'openai-key' | 'github-token' | 'password' | 'acme-id' | 'custom';

export interface Planted {
  source: 'claude' | 'codex';
  kind: PlantedKind;
  value: string;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Deterministic fake values; prefixes are concatenated so this file holds no literal a scanner flags. */
class Values {
  private seed: number;
  readonly planted: Planted[] = [];
  constructor(seed: number) {
    this.seed = seed;
  }
  private rand(n: number, alphabet = ALNUM): string {
    let s = '';
    for (let i = 0; i < n; i++) {
      this.seed = (Math.imul(this.seed, 1103515245) + 12345) >>> 0;
      s += alphabet.charAt((this.seed >>> 8) % alphabet.length);
    }
    return s;
  }
  private plant(source: Planted['source'], kind: PlantedKind, value: string): string {
    this.planted.push({ source, kind, value });
    return value;
  }
  openai = (source: Planted['source']): string =>
    this.plant(source, 'openai-key', ['sk', 'proj', 'a7Q' + this.rand(61)].join('-'));
  github = (source: Planted['source']): string =>
    this.plant(source, 'github-token', 'gh' + 'p_' + 'b8R' + this.rand(33));
  /** The password's value only (the assignment around it stays readable). */
  password = (source: Planted['source']): string => this.plant(source, 'password', 'Zq7' + this.rand(15));
  acme = (source: Planted['source']): string =>
    this.plant(source, 'acme-id', `ACME-${this.rand(6, '0123456789')}`);
  custom = (source: Planted['source']): string =>
    this.plant(
      source,
      'custom',
      `CASE-${this.rand(4, '0123456789')}-${this.rand(2, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`,
    );
}

const lines = (records: unknown[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const ts = (minute: number): string => new Date(Date.now() - (60 - minute) * 60_000).toISOString();

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const CLAUDE_CWD = '/work/acme-app';
const claudeBase = (sessionId: string) => ({
  sessionId,
  cwd: CLAUDE_CWD,
  gitBranch: 'main',
  version: '2.1.0',
  userType: 'external',
  isSidechain: false,
});

function claudeUser(sessionId: string, n: number, text: string) {
  return {
    ...claudeBase(sessionId),
    type: 'user',
    uuid: `${sessionId}-u${n}`,
    timestamp: ts(n),
    message: { role: 'user', content: text },
  };
}

function claudeAssistant(sessionId: string, n: number, content: unknown[]) {
  return {
    ...claudeBase(sessionId),
    type: 'assistant',
    uuid: `${sessionId}-a${n}`,
    timestamp: ts(n),
    message: { id: `msg_${sessionId}_${n}`, role: 'assistant', model: 'claude-sonnet-4-5', content },
  };
}

export interface RedactionCorpus {
  planted: Planted[];
  /** Appends one exchange to the second Claude session; the new value is added to `planted`. */
  appendClaude(): Planted;
}

/** Writes the corpus under `home` (its `.claude` and `.codex`). */
export function writeRedactionCorpus(home: string): RedactionCorpus {
  const v = new Values(2026);
  const claudeDir = path.join(home, '.claude', 'projects', CLAUDE_CWD.replace(/[/.]/g, '-'));

  // Claude, session 1: a key in the prompt, a key and an id in a shell command, a password in an edit.
  const s1 = 'c1000000-0000-4000-8000-000000000001';
  write(
    path.join(claudeDir, `${s1}.jsonl`),
    lines([
      claudeUser(
        s1,
        1,
        `my key is ${v.openai('claude')}, why does ticket ${v.acme('claude')} still get a 401?`,
      ),
      claudeAssistant(s1, 2, [
        { type: 'text', text: 'I will export the key and rerun the failing call.' },
        {
          type: 'tool_use',
          id: 't1',
          name: 'Bash',
          input: { command: `OPENAI_API_KEY=${v.openai('claude')} ./run-ticket ${v.acme('claude')}` },
        },
        {
          type: 'tool_use',
          id: 't2',
          name: 'Edit',
          input: {
            file_path: `${CLAUDE_CWD}/settings.py`,
            old_string: 'TODO',
            new_string: `db_password = "${v.password('claude')}"`,
          },
        },
      ]),
    ]),
  );

  // Claude, session 2: tokens in the reply, which is the last turn (an append reads it again).
  const s2 = 'c2000000-0000-4000-8000-000000000002';
  const claude2 = write(
    path.join(claudeDir, `${s2}.jsonl`),
    lines([
      claudeUser(s2, 3, `clone with ${v.github('claude')} and open ${v.custom('claude')}`),
      claudeAssistant(s2, 4, [
        {
          type: 'text',
          text: `Cloned with ${v.github('claude')}; ${v.acme('claude')} is the ticket. The other key ${v.openai('claude')} is revoked.`,
        },
      ]),
    ]),
  );

  // Codex: a key and a token in the prompt, a password in a shell command, one in a patch, an id.
  const codexId = '019c3333-0000-7000-8000-00000000c0de';
  const envelope = (minute: number, type: string, payload: unknown) => ({
    timestamp: ts(minute),
    type,
    payload,
  });
  const patch = [
    '*** Begin Patch',
    '*** Update File: /work/acme-svc/config.py',
    '@@',
    '-TODO',
    `+admin_password = "${v.password('codex')}"`,
    '*** End Patch',
  ].join('\n');
  write(
    path.join(home, '.codex', 'sessions', '2026', '05', '04', `rollout-2026-05-04T10-00-00-${codexId}.jsonl`),
    lines([
      envelope(1, 'session_meta', { id: codexId, cwd: '/work/acme-svc', cli_version: '0.128.0' }),
      envelope(2, 'response_item', {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: `keys ${v.openai('codex')} and ${v.openai('codex')}, token ${v.github('codex')}, for ${v.acme('codex')}`,
          },
        ],
      }),
      envelope(3, 'response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({
          command: ['bash', '-lc', `PGPASSWORD=${v.password('codex')} psql -c 'select 1'`],
        }),
        call_id: 'c1',
      }),
      envelope(4, 'response_item', {
        type: 'custom_tool_call',
        status: 'completed',
        name: 'apply_patch',
        input: patch,
        call_id: 'c2',
      }),
      envelope(5, 'response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Done: the config reads the password from the patch.' }],
      }),
    ]),
  );

  return {
    planted: v.planted,
    appendClaude: () => {
      const key = v.openai('claude');
      appendFileSync(
        claude2,
        lines([
          claudeUser(s2, 5, 'and the staging key?'),
          claudeAssistant(s2, 6, [{ type: 'text', text: `Staging uses ${key}.` }]),
        ]),
      );
      const last = v.planted.at(-1);
      if (!last) throw new Error('nothing planted');
      return last;
    },
  };
}

/** Planted values counted per source and kind: what the redaction report must show. */
export function plantedCounts(planted: readonly Planted[]): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = {};
  for (const p of planted) {
    const bySource = (counts[p.source] ??= {});
    bySource[p.kind] = (bySource[p.kind] ?? 0) + 1;
  }
  return counts;
}
