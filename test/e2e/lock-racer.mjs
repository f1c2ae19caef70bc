// One racer of test/e2e/lock-race.test.ts: in each round, at the same instant as the other racers,
// try the built lockProject; while holding it, append "enter"/"leave" markers to a shared log. In
// rounds where `leaveStale` is set, the holder leaves a stale lock behind (as a killed holder would).
import process from 'node:process';
import { appendFileSync, linkSync, unlinkSync, writeFileSync } from 'node:fs';
import { lockProject } from '../../dist/src/night/lock.js';

const [home, project, log, startText, periodText, roundsText] = process.argv.slice(2);
const start = Number(startText);
const period = Number(periodText);
const rounds = Number(roundsText);
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
const DEAD_PID = 2 ** 22 + 7;

for (let round = 0; round < rounds; round++) {
  const at = start + round * period;
  sleep(at - Date.now() - 3);
  while (Date.now() < at) {
    // spin the last milliseconds so every racer calls at one instant
  }
  let lock;
  try {
    lock = lockProject(home, project, Date.now());
  } catch (err) {
    if (err?.exitCode !== 75) throw err;
    continue;
  }
  appendFileSync(log, `${round} enter ${process.pid}\n`);
  sleep(4);
  appendFileSync(log, `${round} leave ${process.pid}\n`);
  if (round % 2 === 1) {
    // Die holding it: the lock names a process that no longer runs.
    lock.release();
    const tmp = `${lock.path}.${process.pid}.stale-tmp`;
    writeFileSync(tmp, JSON.stringify({ pid: DEAD_PID, start: '1', token: `dead-${round}` }));
    try {
      linkSync(tmp, lock.path);
    } catch {
      // another racer already took it in between: fine
    }
    unlinkSync(tmp);
  } else {
    lock.release();
  }
}
