/**
 * Runs the lessons model pass (`src/miner/model/read-follow-ups.ts`) over every session a store holds,
 * with a model that is a person or an agent: each request goes into a handoff queue, answered with
 * `skillopt-sleep handoff next/answer --project <queue-folder>`; run again to take the answers in. The
 * readings land in the store exactly as a night's pass stores them, so `harvest --json` on that state
 * shows the lessons a night would have. Every exchange answered is appended to `--record`.
 *
 *   node bench/out/js/bench/lessons-read.js --state DIR --queue-project DIR [--record FILE] [--max N]
 *
 * Prints how many requests are open (0: done).
 */
import { createBackend } from '../src/backends/factory.js';
import { HandoffQueue } from '../src/backends/handoff/handoff-queue.js';
import { ExchangeWriter } from '../src/backends/recording/exchange-log.js';
import { systemClock as clock } from '../src/core/clock.js';
import { silentLogger as logger } from '../src/core/logger.js';
import { AnswerPendingError } from '../src/core/errors.js';
import { configSchema } from '../src/config/schema.js';
import { canAskJson } from '../src/miner/model/label-sessions.js';
import { readFollowUps } from '../src/miner/model/read-follow-ups.js';
import { observeSessions } from '../src/miner/mine.js';
import { openStore } from '../src/store/db.js';
import { querySessions } from '../src/store/sessions-repo.js';
import { sqliteSessionLabels } from '../src/store/session-labels-repo.js';
import { repositoryPartitions } from '../src/night/partitions.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}

const state = arg('state');
const queueProject = arg('queue-project');
if (!state || !queueProject) {
  console.error('usage: lessons-read --state DIR --queue-project DIR [--record FILE] [--max N]');
  process.exit(2);
}
const db = openStore(`${state}/store.sqlite`);
const config = configSchema.parse({ backend: 'handoff', max_calls: 100000, max_tokens: 100_000_000 });
const record = arg('record');
const backend = createBackend(config, {
  env: process.env,
  clock,
  logger,
  db,
  handoff: new HandoffQueue(state, queueProject),
  ...(record ? { record: new ExchangeWriter(record) } : {}),
});
if (!canAskJson(backend)) throw new Error('the handoff backend answers no JSON');
const sessions = querySessions(db, { project: '/', scope: 'all', sinceMs: null, limit: 100000 });
const partitions = repositoryPartitions(
  sessions.map((s) => s.projectRoot),
  { project: '/', scope: 'all' },
);
const { observations } = observeSessions(
  sessions.map((s, i) => ({ ...s, partition: partitions[i] ?? '' })),
  {},
);
try {
  const { stats } = await readFollowUps({
    sessions: observations.map((o) => ({
      sessionKey: o.session.key,
      episodes: o.episodes,
      request: o.request,
    })),
    backend,
    store: sqliteSessionLabels(db, () => clock.now()),
    maxSessions: Number(arg('max') ?? 100000),
    stopsOn: () => false,
  });
  console.log(JSON.stringify({ open: 0, ...stats, usage: undefined }));
} catch (err) {
  if (!(err instanceof AnswerPendingError)) throw err;
  console.log(JSON.stringify({ open: new HandoffQueue(state, queueProject).open().length }));
} finally {
  db.close();
}
