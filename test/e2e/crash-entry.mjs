// Test-only entry for the real-SIGKILL crash tests (test/e2e/adopt-crash.test.ts, run-crash.test.ts):
// runs one operation of the built library with a checkpoint that kills this process with SIGKILL at
// step n, so the product needs no test hook. Usage:
//   node crash-entry.mjs adopt|revert <step> <project> <state-home>
//   node crash-entry.mjs run <step> <project> <state-home> <user-home> <tasks-file>
import process from 'node:process';
import path from 'node:path';
import { adoptProposal, revertProposal } from '../../dist/proposals/index.js';
import { MockBackend } from '../../dist/src/backends/mock/mock-backend.js';
import { systemClock } from '../../dist/src/core/clock.js';
import { silentLogger } from '../../dist/src/core/logger.js';
import { defaultConfig } from '../../dist/src/config/schema.js';
import { runNight } from '../../dist/src/night/run-night.js';
import { openStore } from '../../dist/src/store/db.js';
import { proposalLedger } from '../../dist/src/store/proposal-ledger-repo.js';

const [op, stepText, project, stateHome, userHome, tasksFile] = process.argv.slice(2);
const at = Number(stepText);
const checkpoint = (step) => {
  if (step === at) process.kill(process.pid, 'SIGKILL');
};

const db = openStore(path.join(stateHome, 'store.sqlite'));
const ledger = proposalLedger(db, project);
if (op === 'adopt') {
  await adoptProposal({
    projectDir: project,
    now: Date.now(),
    select: {},
    commit: false,
    checkpoint,
    ledger,
  });
} else if (op === 'revert') {
  await revertProposal({
    projectDir: project,
    now: Date.now(),
    force: false,
    commit: false,
    checkpoint,
    ledger,
  });
} else if (op === 'run') {
  await runNight(
    { project, config: defaultConfig(), mode: 'run', tasksFile, stageCheckpoint: checkpoint },
    {
      home: stateHome,
      userHome,
      env: {},
      clock: systemClock,
      db,
      backend: new MockBackend(),
      logger: silentLogger,
    },
  );
} else {
  throw new Error(`unknown operation ${op}`);
}
db.close();
// Reaching here means step n was never reached.
process.exitCode = 3;
