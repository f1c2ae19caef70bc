/**
 * The queue of a handoff night: one private folder per project under the state home, holding each
 * request the night sent (`requests/<id>.json`, already redacted) and each answer a person or an agent
 * gave (`answers/<id>.json`). A request's id is its exchange hash, so a resumed night asking the same
 * question finds the same answer. Every file is written whole (temp file, fsync, rename) and private.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { InputError, UsageError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import { writeFileAtomicSync } from '../../core/io/atomic-file.js';
import { readJsonFileOrNull } from '../../core/io/json-file.js';
import { storedText } from '../../core/safe-text.js';
import { handoffDir } from '../../config/paths.js';
import type { ChatRequest } from '../llm/chat.js';
import { exchangeHash } from '../recording/exchange-log.js';

export const HANDOFF_REQUEST_FORMAT = 'skillopt_sleep.handoff_request.v1';
export const HANDOFF_ANSWER_FORMAT = 'skillopt_sleep.handoff_answer.v1';
/** An answer longer than this is refused: no request asks for more than a few thousand tokens. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

const requestSchema = z.object({
  format: z.literal(HANDOFF_REQUEST_FORMAT),
  id: z.string(),
  seq: z.number().int().nonnegative(),
  role: z.enum(['target', 'optimizer']),
  created_at: z.number(),
  system: z.string(),
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })),
  max_tokens: z.number(),
  temperature: z.number(),
  sample: z.number(),
  /** What the request is for (its prompt: attempt, judge, reflect, …); absent in older queues. */
  purpose: z.string().optional(),
});
export type HandoffRequest = z.infer<typeof requestSchema>;

const answerSchema = z.object({
  format: z.literal(HANDOFF_ANSWER_FORMAT),
  id: z.string(),
  text: z.string(),
  answered_at: z.number(),
});

/** A request id: the first 16 hex digits of its exchange hash (role, prompt, parameters). */
export const requestId = (req: ChatRequest): string => exchangeHash(req).slice(0, 16);

const ID_PATTERN = /^[0-9a-f]{16}$/;

/** A damaged file is an open question again, never a wrong answer. */
const readJson = readJsonFileOrNull;

export class HandoffQueue {
  readonly dir: string;
  readonly project: string;
  private nextSeq: number | null = null;
  constructor(home: string, project: string) {
    this.project = project;
    this.dir = path.join(handoffDir(home), sha256Hex(project).slice(0, 16));
  }

  private get requestsDir(): string {
    return path.join(this.dir, 'requests');
  }
  private get answersDir(): string {
    return path.join(this.dir, 'answers');
  }

  private ensureDirs(): void {
    for (const d of [path.dirname(this.dir), this.dir, this.requestsDir, this.answersDir]) {
      mkdirSync(d, { recursive: true, mode: 0o700 });
      chmodSync(d, 0o700);
    }
  }

  /** True when this project has a handoff night in progress (requests or its saved state). */
  exists(): boolean {
    return existsSync(this.dir);
  }

  /** The recorded answer to a request, or null while it is open. */
  answerFor(id: string): string | null {
    return readJson(path.join(this.answersDir, `${id}.json`), answerSchema)?.text ?? null;
  }

  /** Queue a request (once; asking again keeps its place) and return its id. */
  enqueue(req: ChatRequest, now: number): string {
    const id = requestId(req);
    const file = path.join(this.requestsDir, `${id}.json`);
    if (existsSync(file)) return id;
    this.ensureDirs();
    this.nextSeq ??= this.requests().reduce((n, r) => Math.max(n, r.seq + 1), 0);
    const entry: HandoffRequest = {
      format: HANDOFF_REQUEST_FORMAT,
      id,
      seq: this.nextSeq++,
      role: req.role,
      created_at: now,
      system: req.system,
      messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
      max_tokens: req.maxTokens,
      temperature: req.temperature,
      sample: req.sample ?? 0,
      ...(req.purpose ? { purpose: req.purpose } : {}),
    };
    writeFileAtomicSync(file, `${JSON.stringify(entry, null, 2)}\n`, 0o600);
    return id;
  }

  /** Every queued request, oldest first. */
  requests(): HandoffRequest[] {
    if (!existsSync(this.requestsDir)) return [];
    return readdirSync(this.requestsDir)
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .flatMap((n) => readJson(path.join(this.requestsDir, n), requestSchema) ?? [])
      .sort((a, b) => a.seq - b.seq);
  }

  /** The requests still waiting for an answer, oldest first. */
  open(): HandoffRequest[] {
    return this.requests().filter((r) => this.answerFor(r.id) === null);
  }

  /** Record the answer to an open request: redacted, without control characters, refused if empty. */
  answer(id: string, raw: string, now: number): void {
    if (!ID_PATTERN.test(id))
      throw new UsageError(`not a handoff request id: ${JSON.stringify(id.slice(0, 40))}`);
    const request = readJson(path.join(this.requestsDir, `${id}.json`), requestSchema);
    if (!request) throw new InputError(`no handoff request ${id} is queued for ${this.project}`);
    if (this.answerFor(id) !== null)
      throw new InputError(`the handoff request ${id} is answered already; answer the next one`);
    if (Buffer.byteLength(raw, 'utf8') > MAX_ANSWER_BYTES)
      throw new InputError(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    // Control characters and escape sequences out, secrets redacted: what any stored text gets.
    const text = storedText(raw);
    if (text.trim() === '') throw new InputError('the answer is empty');
    this.ensureDirs();
    const entry = { format: HANDOFF_ANSWER_FORMAT, id, text, answered_at: now };
    writeFileAtomicSync(path.join(this.answersDir, `${id}.json`), `${JSON.stringify(entry)}\n`, 0o600);
  }

  /** Note the store's row of the invocation now running, so a later one can drop it if this one dies. */
  rememberNight(id: number): void {
    this.ensureDirs();
    writeFileAtomicSync(path.join(this.dir, 'night-id'), `${id}\n`, 0o600);
  }

  /** The store row the last invocation started, or null. */
  startedNight(): number | null {
    try {
      const id = Number(readFileSync(path.join(this.dir, 'night-id'), 'utf8').trim());
      return Number.isSafeInteger(id) && id > 0 ? id : null;
    } catch {
      return null;
    }
  }

  /** Forget the night's queue and state (after it finished, or on `handoff discard`). */
  discard(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
