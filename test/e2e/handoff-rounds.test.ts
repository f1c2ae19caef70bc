/**
 * How many `run` invocations a handoff night takes, and what each waiting stop says. Each `run` queues
 * a round; `handoff next --json` then serves its requests one by one until it says none, and each is
 * answered. What the `run` said it waits for must be exactly what `handoff next` served, and nothing
 * of a gate that has not run. Two nights: a small project answered by the scripted model of
 * `test/fakes/brain.mjs`, and the recorded strong-model lessons night (`lessons-night.test.ts`),
 * answered with the reply the model gave to each very request.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exchangeHash } from '../../src/backends/recording/exchange-log.js';
import type { HandoffRequest } from '../../src/backends/handoff/handoff-queue.js';
import { reply as brainReply } from '../fakes/brain.mjs';
import { runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { writeLessonsNightCorpus } from './lessons-night-corpus.js';
import { writeClaudeTranscripts } from './real-backend-fixtures.js';

const RECORDING = path.resolve(import.meta.dirname, '../fixtures/lessons-night/recording.jsonl');
const SCHEMA_DOC = readFileSync(path.resolve(import.meta.dirname, '../../docs/report-schema.md'), 'utf8');

type Answerer = (r: HandoffRequest) => string;

interface Round {
  phases: string[];
  served: Record<string, number>;
}

/** Serve every open request as `handoff next` hands them out; how many of each purpose it served. */
async function answerRound(box: Sandbox, answer: Answerer): Promise<Record<string, number>> {
  const served: Record<string, number> = {};
  for (;;) {
    const next = await runCli(box, ['handoff', 'next', '--json']);
    expect(next.code, next.stderr).toBe(0);
    const r = next.json().request as HandoffRequest | null;
    if (!r) return served;
    const purpose = r.purpose ?? 'none';
    served[purpose] = (served[purpose] ?? 0) + 1;
    const answered = await runCli(box, ['handoff', 'answer', r.id], {}, { input: answer(r) });
    expect(answered.code, answered.stderr).toBe(0);
  }
}

/** `run` until the night ends, answering each round; checks what every waiting stop says. */
async function driveNight(
  box: Sandbox,
  args: string[],
  answer: Answerer,
): Promise<{ rounds: Round[]; final: Record<string, unknown> }> {
  const rounds: Round[] = [];
  for (let invocation = 1; invocation <= 30; invocation++) {
    const r = await runCli(box, ['run', '--json', '--backend', 'handoff', ...args]);
    expect(r.code, r.stderr).toBe(0);
    const report = r.json();
    if (report.stopped !== 'waiting_handoff') return { rounds, final: report };
    const waiting = report.waiting as {
      phases: string[];
      open: number;
      open_by_purpose: Record<string, number>;
      requests: number;
    };
    // Nothing of a phase that has not run: no gate action, score or edit, no "nothing to train".
    for (const key of ['gate_action', 'accepted', 'baseline', 'candidate', 'edits', 'learned_rules'])
      expect(report).not.toHaveProperty(key);
    expect(report.notes).toEqual([]);
    expect(waiting.phases.length).toBeGreaterThan(0);
    // The waiting shape is documented, field by field.
    for (const key of [...Object.keys(report), ...Object.keys(waiting)])
      expect(SCHEMA_DOC, key).toContain(`\`${key}\``);
    const served = await answerRound(box, answer);
    // What the run said it waits for is what `handoff next` served, request for request.
    expect(served).toEqual(waiting.open_by_purpose);
    expect(Object.values(served).reduce((a, b) => a + b, 0)).toBe(waiting.open);
    expect(report.handoff).toMatchObject({ open: waiting.open, requests: waiting.requests });
    rounds.push({ phases: waiting.phases, served });
  }
  throw new Error('the handoff night did not end in 30 invocations');
}

/** The whole prompt of a queued request, as the fake model reads it. */
const promptOf = (r: HandoffRequest): string => [r.system, ...r.messages.map((m) => m.content)].join('\n\n');

/** The scripted model, which also reads follow-ups: "instead of" corrects, thanks is feedback. */
function scriptedModel(r: HandoffRequest): string {
  if (r.purpose !== 'read-follow-ups') return brainReply(promptOf(r));
  const items: Array<Record<string, unknown>> = [{ n: 0, class: 'request' }];
  for (const m of (r.messages[0]?.content ?? '').matchAll(/^## (\d+)\n[\s\S]*?^User: (.*)$/gm)) {
    const [, n, said = ''] = m;
    if (/instead of/.test(said))
      items.push({ n: Number(n), class: 'correction', rule: 'Use pnpm instead of npm.', general: true });
    else items.push({ n: Number(n), class: /thanks/.test(said) ? 'feedback' : 'request' });
  }
  return JSON.stringify({ follow_ups: items });
}

/** The recorded replies, by the hash of the request each answered. */
function recordedModel(): Answerer {
  const replies = new Map<string, string>();
  for (const line of readFileSync(RECORDING, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line) as { hash: string; reply: { text: string } };
    replies.set(e.hash, e.reply.text);
  }
  return (r) => {
    const text = replies.get(
      exchangeHash({
        role: r.role,
        system: r.system,
        messages: r.messages,
        maxTokens: r.max_tokens,
        temperature: r.temperature,
        sample: r.sample,
      }),
    );
    // Every request is one the recorded night asked: nothing the night queues goes unused.
    expect(text, `the recorded night never asked ${r.id}`).toBeDefined();
    return text ?? '';
  };
}

describe('a handoff night waits in whole rounds', () => {
  it('a small project: mining, then baseline and train together, reflection, candidate — 6 invocations', async () => {
    const box = sandbox();
    writeClaudeTranscripts(box.home, box.project);
    const { rounds, final } = await driveNight(box, ['--lookback-hours', '0'], scriptedModel);
    expect(rounds).toEqual([
      { phases: ['mine llm_lessons'], served: { 'read-follow-ups': 6 } },
      { phases: ['mine llm_miner'], served: { 'mine-tasks': 1 } },
      { phases: ['skill baseline_val', 'skill train'], served: { attempt: 7 } },
      { phases: ['skill reflect'], served: { reflect: 1 } },
      // The candidate on the validation tasks (how many of the 7 are held out varies with the sandbox).
      { phases: ['skill gate_trial'], served: { attempt: final.n_val } },
    ]);
    // Five rounds and the run that finishes: 6 invocations (7 when each replay waited for the one before).
    expect(rounds.length + 1).toBeLessThanOrEqual(6);
    expect(final).toMatchObject({ stopped: '', accepted: true, gate_action: 'accept_new_best' });
  }, 120_000);

  it('the recorded lessons night: 6 invocations where it took 15', async () => {
    const box = sandbox();
    writeLessonsNightCorpus(box.home, box.project);
    mkdirSync(path.join(box.project, '.skillopt-sleep'), { recursive: true });
    writeFileSync(
      path.join(box.project, '.skillopt-sleep', 'config.json'),
      JSON.stringify({ lookback_hours: 0, llm_mine: false }),
    );
    const { rounds, final } = await driveNight(box, [], recordedModel());
    expect(rounds).toEqual([
      { phases: ['mine llm_lessons'], served: { 'read-follow-ups': 13 } },
      // Baseline and train together; every task is judged by a check (the rubric-judged one-offs
      // are not replayed), so no judge round follows.
      { phases: ['skill baseline_val', 'skill train'], served: { attempt: 7 } },
      { phases: ['skill reflect'], served: { reflect: 1 } },
      { phases: ['skill gate_trial'], served: { attempt: 2 } },
      // The edit that fixes its own tasks gets no trial; the other one's trial, whole.
      { phases: ['skill prune_trial'], served: { attempt: 2 } },
    ]);
    expect(rounds.length + 1).toBeLessThanOrEqual(6);
    expect(rounds.flatMap((r) => Object.values(r.served)).reduce((a, b) => a + b, 0)).toBe(25);
    expect(final).toMatchObject({ stopped: '', accepted: true, n_tasks: 7, n_accepted_edits: 1 });
    expect(final.candidate as number).toBe(1);
  }, 120_000);
});
