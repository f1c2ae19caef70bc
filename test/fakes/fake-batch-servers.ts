/**
 * Fake OpenAI Batch API and Anthropic Message Batches servers on 127.0.0.1 (port 0), for tests that
 * drive the real SDKs at them: file upload (multipart), batch create, retrieve, results. Each request
 * of a batch is answered by the fake brain exactly as `fake-servers.ts` answers it interactively (same
 * text, same usage). A batch can be kept in progress for N polls, and the next batches scripted to
 * expire or fail.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { kindOf, reply } from './brain.mjs';
import { answer, promptText, type Flavor } from './fake-servers.js';

export interface FakeBatchServer {
  url: string;
  /** Batches created, and the custom_ids each carried, in order. */
  created: string[][];
  /** Retrieve calls (polls) received. */
  retrieves: number;
  /** The `endpoint` of each OpenAI batch create, and the `url` of each line (Azure: no /v1). */
  endpoints: string[];
  /** Interactive requests (chat completions / messages): a batch night sends none. */
  interactive: number;
  /** Every request body of every batch, as the SDK sent it (to look for secrets). */
  bodies: string[];
  /** Polls a new batch answers "in progress" before it ends. */
  pollsInProgress: number;
  /** How the next batches end (one entry a batch, shifted); then they complete. */
  outcomes: Array<'expired' | 'failed'>;
  /** Hold every retrieve answer this long (ms): a test kills the CLI while it polls. */
  holdRetrieveMs: number;
  /** OpenAI: requests an expired batch answered before it lapsed (in its output file). */
  answeredBeforeExpiry: number;
  /** What the provider still keeps: OpenAI files, or Anthropic batches (a collected one is removed). */
  kept(): number;
  reset(): void;
  close(): Promise<void>;
}

interface Job {
  id: string;
  inputFileId: string;
  items: Array<{ custom_id: string; body: Record<string, unknown> }>;
  polls: number;
  outcome: 'expired' | 'failed' | 'completed';
  createdAt: number;
}

/** A multipart upload's JSONL part: every line that is a batch request. */
function jsonlOf(raw: string): string {
  return raw
    .split(/\r?\n/)
    .filter((l) => l.startsWith('{"custom_id"'))
    .join('\n');
}

export async function startFakeBatchServer(flavor: Flavor): Promise<FakeBatchServer> {
  const files = new Map<string, string>();
  const jobs = new Map<string, Job>();
  let seq = 0;
  const state: FakeBatchServer = {
    url: '',
    created: [],
    retrieves: 0,
    endpoints: [],
    interactive: 0,
    bodies: [],
    pollsInProgress: 0,
    outcomes: [],
    holdRetrieveMs: 0,
    answeredBeforeExpiry: 0,
    kept: () => (flavor === 'openai' ? files.size : jobs.size),
    reset() {
      state.created.length = 0;
      state.retrieves = 0;
      state.endpoints.length = 0;
      state.interactive = 0;
      state.bodies.length = 0;
      state.pollsInProgress = 0;
      state.outcomes.length = 0;
      state.holdRetrieveMs = 0;
      state.answeredBeforeExpiry = 0;
      files.clear();
      jobs.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const create = (items: Job['items'], inputFileId = ''): Job => {
    seq += 1;
    const id = flavor === 'openai' ? `batch_fake${seq}` : `msgbatch_fake${seq}`;
    const job: Job = {
      id,
      inputFileId,
      items,
      polls: 0,
      outcome: state.outcomes.shift() ?? 'completed',
      createdAt: Date.now(),
    };
    jobs.set(id, job);
    state.created.push(items.map((i) => i.custom_id));
    for (const i of items) state.bodies.push(JSON.stringify(i.body));
    return job;
  };
  const ended = (job: Job): boolean => job.polls > state.pollsInProgress;
  const answerOf = (body: Record<string, unknown>): unknown => {
    const text = promptText(flavor, body);
    void kindOf(text);
    return answer(flavor, body, reply(text), text);
  };

  const openaiBatch = (job: Job): Record<string, unknown> => {
    const status = !ended(job) ? 'in_progress' : job.outcome;
    // A completed batch answers every request; an expired one the first `answeredBeforeExpiry`.
    const answered =
      job.outcome === 'completed'
        ? job.items
        : job.outcome === 'expired'
          ? job.items.slice(0, state.answeredBeforeExpiry)
          : [];
    if (ended(job) && answered.length > 0 && !files.has(`out-${job.id}`)) {
      const lines = answered.map((i) =>
        JSON.stringify({
          id: `req-${i.custom_id.slice(0, 8)}`,
          custom_id: i.custom_id,
          response: { status_code: 200, request_id: 'r', body: answerOf(i.body) },
          error: null,
        }),
      );
      files.set(`out-${job.id}`, `${lines.join('\n')}\n`);
    }
    return {
      id: job.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      input_file_id: job.inputFileId,
      completion_window: '24h',
      status,
      created_at: Math.floor(job.createdAt / 1000),
      ...(files.has(`out-${job.id}`) ? { output_file_id: `out-${job.id}` } : {}),
      ...(status === 'failed'
        ? { errors: { object: 'list', data: [{ code: 'scripted', message: 'scripted failure' }] } }
        : {}),
      request_counts: {
        total: job.items.length,
        completed: status === 'completed' ? job.items.length : 0,
        failed: 0,
      },
    };
  };

  const anthropicBatch = (job: Job): Record<string, unknown> => {
    const done = ended(job);
    return {
      id: job.id,
      type: 'message_batch',
      processing_status: done ? 'ended' : 'in_progress',
      request_counts: {
        processing: done ? 0 : job.items.length,
        succeeded: 0,
        errored: 0,
        canceled: 0,
        expired: 0,
      },
      results_url: done ? `${state.url}/v1/messages/batches/${job.id}/results` : null,
      created_at: new Date(job.createdAt).toISOString(),
      expires_at: new Date(job.createdAt + 86_400_000).toISOString(),
      ended_at: done ? new Date().toISOString() : null,
      archived_at: null,
      cancel_initiated_at: null,
    };
  };

  const anthropicResults = (job: Job): string =>
    job.items
      .map((i) =>
        JSON.stringify({
          custom_id: i.custom_id,
          result:
            job.outcome === 'completed'
              ? { type: 'succeeded', message: answerOf(i.body) }
              : job.outcome === 'expired'
                ? { type: 'expired' }
                : {
                    type: 'errored',
                    error: { type: 'error', error: { type: 'invalid_request_error', message: 'scripted' } },
                  },
        }),
      )
      .join('\n');

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('latin1');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      // Azure OpenAI's client calls /openai/<path>?api-version=…: the same routes.
      const url = (req.url ?? '').replace(/\?.*$/, '').replace(/^\/openai\//, '/v1/');
      const send = (status: number, payload: unknown, type = 'application/json', holdMs = 0): void => {
        setTimeout(() => {
          res.writeHead(status, { 'content-type': type });
          res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
        }, holdMs);
      };
      const text = Buffer.from(raw, 'latin1').toString('utf8');
      if (req.method === 'POST' && (url === '/v1/chat/completions' || url === '/v1/messages')) {
        state.interactive += 1;
        send(200, answerOf(JSON.parse(text) as Record<string, unknown>));
        return;
      }
      if (flavor === 'openai') {
        const file = /^\/v1\/files\/([\w-]+)$/.exec(url);
        if (req.method === 'DELETE' && file) {
          files.delete(file[1] ?? '');
          send(200, { id: file[1], object: 'file', deleted: true });
          return;
        }
        if (req.method === 'POST' && url === '/v1/files') {
          seq += 1;
          const id = `file-${seq}`;
          files.set(id, jsonlOf(text));
          send(200, {
            id,
            object: 'file',
            bytes: text.length,
            created_at: 0,
            filename: 'b.jsonl',
            purpose: 'batch',
            status: 'processed',
          });
          return;
        }
        if (req.method === 'POST' && url === '/v1/batches') {
          const body = JSON.parse(text) as { input_file_id: string; endpoint: string };
          state.endpoints.push(body.endpoint);
          const lines = (files.get(body.input_file_id) ?? '').split('\n').filter((l) => l !== '');
          const parsed = lines.map((l) => JSON.parse(l) as Job['items'][number] & { url: string });
          state.endpoints.push(...parsed.map((l) => l.url));
          const job = create(parsed, body.input_file_id);
          send(200, openaiBatch(job));
          return;
        }
        const retrieve = /^\/v1\/batches\/([\w-]+)$/.exec(url);
        if (req.method === 'GET' && retrieve) {
          const job = jobs.get(retrieve[1] ?? '');
          if (!job) return send(404, { error: { message: 'no such batch' } });
          state.retrieves += 1;
          job.polls += 1;
          send(200, openaiBatch(job), 'application/json', state.holdRetrieveMs);
          return;
        }
        const content = /^\/v1\/files\/([\w-]+)\/content$/.exec(url);
        if (req.method === 'GET' && content) {
          send(200, files.get(content[1] ?? '') ?? '', 'application/octet-stream');
          return;
        }
      } else {
        if (req.method === 'POST' && url === '/v1/messages/batches') {
          const body = JSON.parse(text) as {
            requests: Array<{ custom_id: string; params: Record<string, unknown> }>;
          };
          const job = create(body.requests.map((r) => ({ custom_id: r.custom_id, body: r.params })));
          send(200, anthropicBatch(job));
          return;
        }
        const results = /^\/v1\/messages\/batches\/([\w-]+)\/results$/.exec(url);
        if (req.method === 'GET' && results) {
          const job = jobs.get(results[1] ?? '');
          send(200, job ? anthropicResults(job) : '', 'application/binary');
          return;
        }
        const retrieve = /^\/v1\/messages\/batches\/([\w-]+)$/.exec(url);
        if (req.method === 'DELETE' && retrieve) {
          jobs.delete(retrieve[1] ?? '');
          send(200, { id: retrieve[1], type: 'message_batch_deleted' });
          return;
        }
        if (req.method === 'GET' && retrieve) {
          const job = jobs.get(retrieve[1] ?? '');
          if (!job)
            return send(404, { type: 'error', error: { type: 'not_found_error', message: 'no such batch' } });
          state.retrieves += 1;
          // The SDK's results() retrieves once more first: an ended batch stays ended.
          if (!ended(job)) job.polls += 1;
          send(200, anthropicBatch(job), 'application/json', state.holdRetrieveMs);
          return;
        }
      }
      send(404, { error: { message: `no route ${req.method} ${url}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  state.url = flavor === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  return state;
}
