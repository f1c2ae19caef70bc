/**
 * Issue 15, item 7: many processes calling lockProject at one instant never hold it together. Six
 * racers (child node processes on the built module) meet at the same millisecond in every round; each
 * holder writes "enter"/"leave" markers while it holds the lock, and no two holders may overlap. Odd
 * rounds leave a stale lock (a dead pid) behind, so the next round also races to take a stale lock over.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { sandbox } from './cli-helpers.js';

const RACERS = 6;
const ROUNDS = 80;
const PERIOD_MS = 120;
const RACER = path.join(import.meta.dirname, 'lock-racer.mjs');

it('six processes racing lockProject for 80 rounds never hold it at once', async () => {
  const box = sandbox();
  const log = path.join(box.root, 'holders.log');
  writeFileSync(log, '');
  const start = Date.now() + 1500;
  const args = [box.stateHome, box.project, log, String(start), String(PERIOD_MS), String(ROUNDS)];
  const exits = await Promise.all(
    Array.from(
      { length: RACERS },
      () =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [RACER, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
          child.on('close', (code) => resolve({ code, stderr }));
        }),
    ),
  );
  for (const e of exits) expect(e.code, e.stderr).toBe(0);

  const lines = readFileSync(log, 'utf8').trim().split('\n');
  let holder: string | null = null;
  const overlaps: string[] = [];
  const roundsHeld = new Set<string>();
  for (const line of lines) {
    const [round = '', what, pid = ''] = line.split(' ');
    if (what === 'enter') {
      if (holder !== null) overlaps.push(`round ${round}: ${pid} entered while ${holder} held it`);
      holder = pid;
      roundsHeld.add(round);
    } else {
      if (holder !== pid) overlaps.push(`round ${round}: ${pid} left while ${holder ?? 'nobody'} held it`);
      holder = null;
    }
  }
  expect(overlaps).toEqual([]);
  // Every round someone got it (the stale lock of odd rounds was taken over), so the check had teeth.
  expect(roundsHeld.size).toBe(ROUNDS);
}, 60_000);
