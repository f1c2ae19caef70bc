/**
 * A parse worker (`parse-pool.ts` starts it): parses the transcript files it is sent with their
 * harvester, redacts every session (`readyEverySession`) and posts the result back. It never touches
 * the store: the main thread decides what of it is stored, in file order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { harvesters } from '../../harvesters/index.js';
import { errorMessage } from '../core/errors.js';
import { withRedactPatterns } from '../core/redact-user.js';
import { readyEverySession } from './ready-session.js';
import type { ParseReply, ParseRequest, WorkerSetup } from './parse-pool.js';

const setup = workerData as WorkerSetup;
const port = parentPort;

async function handle(job: ParseRequest): Promise<ParseReply> {
  try {
    const { sessions, ...parsed } = await harvesters[job.source].parse(job.file, job.from, job.options);
    return { id: job.id, parsed, ready: sessions.map((s) => readyEverySession(s, setup.markers)) };
  } catch (err) {
    return { id: job.id, error: errorMessage(err) };
  }
}

// The user's redact_patterns are the main thread's scope's, sent at start.
port?.on('message', (job: ParseRequest) => {
  void withRedactPatterns(setup.patterns, () => handle(job)).then((reply) => port.postMessage(reply));
});
