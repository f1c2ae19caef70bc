import { describe, expect, it } from 'vitest';
import type { HarvestedSession, HarvestedTurn } from '../core/session.js';
import { feedbackSignals, labelOutcome } from './outcome.js';

type TurnSpec =
  string | { role?: 'user' | 'assistant'; text?: string; toolErrors?: number; interrupted?: boolean };

/** A session from user prompts; assistant replies are interleaved so the shape is realistic. */
function session(...specs: TurnSpec[]): HarvestedSession {
  const turns: HarvestedTurn[] = [];
  for (const spec of specs) {
    const s = typeof spec === 'string' ? { text: spec } : spec;
    const role = s.role ?? 'user';
    turns.push({
      seq: turns.length,
      offset: 0,
      role,
      text: s.text ?? '',
      ts: null,
      toolNames: [],
      actions: [],
      toolErrors: s.toolErrors ?? 0,
      interrupted: s.interrupted ?? false,
    });
    if (role === 'user') {
      turns.push({
        seq: turns.length,
        offset: 0,
        role: 'assistant',
        text: 'done',
        ts: null,
        toolNames: [],
        actions: [],
        toolErrors: 0,
        interrupted: false,
      });
    }
  }
  return {
    source: 'claude',
    sessionId: 's',
    cwd: '/p',
    branch: 'main',
    model: 'm',
    startedAt: null,
    endedAt: null,
    turns,
    toolsUsed: [],
    skillsUsed: [],
    filesTouched: [],
    sourcePath: '/x.jsonl',
    sourceVersion: '',
  };
}

describe('feedbackSignals', () => {
  it('finds phrases in text order', () => {
    expect(feedbackSignals("no, that's wrong. ok works now, thanks")).toEqual([
      'neg:no,',
      "neg:that's wrong",
      'pos:works now',
      'pos:thanks',
    ]);
  });

  it('is word-bounded: incorrect is not correct, greater is not great', () => {
    expect(feedbackSignals('that is incorrect')).toEqual(['neg:incorrect']);
    expect(feedbackSignals('make it greater than 5')).toEqual([]);
    expect(feedbackSignals('piano, please')).toEqual([]);
  });

  it('prefers the longest overlapping phrase', () => {
    expect(feedbackSignals('it is not fixed')).toEqual(['neg:not fixed']);
    expect(feedbackSignals('still wrong')).toEqual(['neg:still wrong']);
  });

  it('flips a positive phrase right after a negation', () => {
    expect(feedbackSignals("that's not correct")).toEqual(['neg:not correct']);
    expect(feedbackSignals("this isn't great")).toEqual(['neg:not great']);
    expect(feedbackSignals('not bad, thanks')).toEqual(['pos:thanks']);
  });

  it('knows the added phrases', () => {
    expect(feedbackSignals('use pnpm instead')).toEqual(['neg:use instead']);
    expect(feedbackSignals('This is not what I asked')).toEqual(['neg:not what i asked']);
    expect(feedbackSignals("That's not right")).toEqual(["neg:that's not right"]);
    expect(feedbackSignals('ok, works')).toEqual(['pos:ok works']);
    expect(feedbackSignals('that did it')).toEqual(['pos:that did it']);
  });

  it('accepts curly apostrophes', () => {
    expect(feedbackSignals('it doesn’t work')).toEqual(["neg:doesn't work"]);
  });
});

describe('labelOutcome', () => {
  it('lets the last signal decide (the reference would say fail)', () => {
    const result = labelOutcome(session('Add zod please', "no, that's wrong", 'ok works now, thanks'));
    expect(result.outcome).toBe('success');
    expect(result.signals).toEqual(['neg:no,', "neg:that's wrong", 'pos:works now', 'pos:thanks']);
  });

  it('fails when a correction comes after the praise', () => {
    expect(labelOutcome(session('Add zod please', 'thanks', 'hmm, still broken')).outcome).toBe('fail');
  });

  it('ignores feedback words in the first prompt', () => {
    expect(labelOutcome(session('the wrong button is broken, fix it')).outcome).toBe('unknown');
  });

  it('counts a tool error as negative when nothing positive follows', () => {
    const result = labelOutcome(session('Run the tests please', { text: '', toolErrors: 2 }));
    expect(result).toEqual({ outcome: 'fail', signals: ['tool_error'] });
  });

  it('lets a later positive signal override tool errors and interrupts', () => {
    const result = labelOutcome(
      session(
        'Run the tests please',
        { text: '', toolErrors: 1 },
        '[Request interrupted by user]',
        'great, thanks',
      ),
    );
    expect(result).toEqual({
      outcome: 'success',
      signals: ['tool_error', 'interrupt', 'pos:great', 'pos:thanks'],
    });
  });

  it('takes the interrupt flag from the harvester too', () => {
    const result = labelOutcome(session('Run the tests please', { text: 'use vitest', interrupted: true }));
    expect(result).toEqual({ outcome: 'fail', signals: ['interrupt'] });
  });

  it('reads the words typed after an interrupt marker', () => {
    const result = labelOutcome(
      session('Add zod please', '[Request interrupted by user]no, use pnpm instead'),
    );
    expect(result.signals).toEqual(['interrupt', 'neg:no,', 'neg:use instead']);
  });

  it('says mixed for long sessions without signals and unknown for short ones', () => {
    expect(labelOutcome(session('Add zod please', 'also add dayjs', 'and clsx')).outcome).toBe('mixed');
    expect(labelOutcome(session('Add zod please', 'also add dayjs')).outcome).toBe('unknown');
  });

  it('starts after the first real prompt, skipping slash commands', () => {
    const result = labelOutcome(session('/clear', 'Add zod please', 'perfect'));
    expect(result).toEqual({ outcome: 'success', signals: ['pos:perfect'] });
  });

  it('is unknown without any prompt', () => {
    expect(labelOutcome(session('/clear'))).toEqual({ outcome: 'unknown', signals: [] });
  });
});
