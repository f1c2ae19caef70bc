/* eslint-disable no-console */
/* global process, console */
// Runs the built CLI against the state home named by $BENCH_STATE, whatever SKILLOPT_SLEEP_HOME says:
// a scorer that makes a fresh state per run (../shared/eval/real-dev/score-lessons.py) then scores a
// store that already holds a model pass's readings (bench/lessons-read.ts).
//   BENCH_STATE=/tmp/state python3 score-lessons.py HOME bench/with-state.mjs
if (!process.env.BENCH_STATE) {
  console.error('with-state: set BENCH_STATE to the state home to use');
  process.exit(2);
}
process.env.SKILLOPT_SLEEP_HOME = process.env.BENCH_STATE;
await import('../dist/src/cli/main.js');
