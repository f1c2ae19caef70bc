/**
 * Model calls and prompt bytes of a mock night on the persona tasks files (issue 20 item 5).
 *
 * The mock builds no prompts, so every request also goes through the real LLM backend's prompt builders
 * (`LlmBackend` with a chat that only measures what it is asked and answers with the mock's reply): the
 * bytes are those of the system prompt and messages a real provider would receive for that night. The
 * mock's answers drive the night, so the result is the mock night's result.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/js/bench/calls.js
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LlmBackend } from '../src/backends/llm/llm-backend.js';
import type { ChatRequest } from '../src/backends/llm/chat.js';
import type { GuardedChat, GuardedReply } from '../src/backends/llm/guarded-chat.js';
import type { SpendMeter } from '../src/backends/llm/spend-meter.js';
import { MockBackend } from '../src/backends/mock/mock-backend.js';
import type {
  AttemptRequest,
  AttemptResult,
  Backend,
  ReflectRequest,
  ReflectResult,
  RubricRequest,
} from '../src/backends/types.js';
import type { Score } from '../src/core/task.js';
import type { Usage } from '../src/core/usage.js';
import { fixedClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import { defaultConfig } from '../src/config/schema.js';
import { runNight } from '../src/night/run-night.js';
import { openStore } from '../src/store/db.js';

export const PERSONA_FILES = ['researcher', 'programmer', 'researcher-with-harmful'];

/** A mock backend whose every request is also rendered by the real prompt builders and measured. */
class MeasuredMock implements Backend {
  readonly name = 'mock';
  readonly offline = true;
  calls = 0;
  promptBytes = 0;
  private readonly mock = new MockBackend();
  private reply = '';
  private readonly llm: LlmBackend;

  constructor() {
    const chat = {
      provider: { name: 'measured' },
      complete: (req: ChatRequest): Promise<GuardedReply> => {
        this.calls += 1;
        this.promptBytes += Buffer.byteLength(req.system);
        for (const m of req.messages) this.promptBytes += Buffer.byteLength(m.content);
        return Promise.resolve({
          text: this.reply,
          usage: { calls: 1, inputTokens: 0, outputTokens: 0 },
          cached: false,
        });
      },
    } as unknown as GuardedChat;
    const meter = { repairedReplies: 0, invalidReplies: 0, unjudgedAnswers: 0 } as unknown as SpendMeter;
    this.llm = new LlmBackend({ target: chat, optimizer: chat }, meter);
  }

  // The measured chat reads `reply` synchronously when the LLM backend calls it, before any await.
  async attempt(req: AttemptRequest): Promise<AttemptResult> {
    const answer = await this.mock.attempt(req);
    this.reply = answer.response;
    await this.llm.attempt(req);
    return answer;
  }

  async reflect(req: ReflectRequest): Promise<ReflectResult> {
    const answer = await this.mock.reflect(req);
    this.reply = JSON.stringify({ edits: answer.edits });
    await this.llm.reflect(req);
    return answer;
  }

  async judgeRubric(req: RubricRequest): Promise<Score & { usage: Usage }> {
    const answer = await this.mock.judgeRubric(req);
    this.reply = JSON.stringify({ hard: answer.hard, soft: answer.soft, rationale: answer.rationale });
    await this.llm.judgeRubric(req);
    return answer;
  }
}

export interface NightCalls {
  persona: string;
  calls: number;
  promptBytes: number;
  /** The night's own count (the report's `calls`), to check the measure sees every request. */
  reportedCalls: number;
  baseline: number;
  candidate: number;
  gateAction: string;
  accepted: string[];
}

// Compiled to bench/out/js/bench/calls.js.
const REPO = path.resolve(import.meta.dirname, '../../../..');

/** Compiled into bench/out/js, the code looks for its templates beside itself. */
function linkTemplates(): void {
  const link = path.join(REPO, 'bench/out/js/templates');
  if (!existsSync(link)) symlinkSync(path.join(REPO, 'templates'), link);
}

export async function personaNightCalls(persona: string): Promise<NightCalls> {
  linkTemplates();
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-calls-'));
  try {
    const project = path.join(root, 'project');
    mkdirSync(project);
    const backend = new MeasuredMock();
    const file = path.join(REPO, `test/fixtures/personas/${persona}.tasks.json`);
    const report = await runNight(
      { project, config: defaultConfig(), mode: 'dry-run', tasksFile: file },
      {
        home: path.join(root, 'state'),
        userHome: path.join(root, 'home'),
        env: {},
        clock: fixedClock(Date.UTC(2026, 10, 29)),
        db: openStore(':memory:'),
        backend,
        logger: silentLogger,
      },
    );
    return {
      persona,
      calls: backend.calls,
      promptBytes: backend.promptBytes,
      reportedCalls: report.calls,
      baseline: report.baseline ?? Number.NaN,
      candidate: report.candidate ?? Number.NaN,
      gateAction: report.gate_action,
      accepted: report.edits.map((e) => e.content),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  for (const persona of PERSONA_FILES) {
    const r = await personaNightCalls(persona);
    console.log(
      `${r.persona.padEnd(24)} calls ${String(r.calls).padStart(3)} (report ${r.reportedCalls})  prompt bytes ${String(r.promptBytes).padStart(6)}  baseline ${r.baseline.toFixed(4)} candidate ${r.candidate.toFixed(4)} ${r.gateAction} accepted ${JSON.stringify(r.accepted)}`,
    );
  }
}
