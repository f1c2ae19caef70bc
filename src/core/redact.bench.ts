/**
 * Micro-benchmark for `redactSecrets`: a deterministic corpus of turn-sized texts (prose, code, shell
 * output, JSON tool results) with or without embedded fake secrets, a timer, an anchor timed the same
 * way (a JSON round trip of each turn, so runs on a loaded machine compare by ratio), and the
 * adversarial inputs with their time budget. Not a test (tests do not assert wall time). After
 * `npm run build`:
 *   node --input-type=module -e "const m = await import('./dist/src/core/redact.bench.js');
 *     console.log(m.benchmarkRedaction(), m.adversarialOverBudget())"
 * Fake secrets are assembled from fragments at run time so no literal here looks like a real key.
 */
import { redactSecrets } from './redact.js';

/** mulberry32, so the corpus is the same on every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

class Gen {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
  chars(alphabet: string, n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet.charAt(this.int(alphabet.length));
    return s;
  }
  alnum(n: number): string {
    return this.chars(ALNUM, n);
  }
  hex(n: number): string {
    return this.chars('0123456789abcdef', n);
  }
}

/** Fake but well-formed secrets, one per kind family. */
function fakeSecret(g: Gen): string {
  const b64url = ALNUM + '-_';
  const makers: (() => string)[] = [
    () => ['sk', 'proj', g.chars(b64url, 156)].join('-'),
    () => ['sk', 'ant', 'api03', g.chars(b64url, 90) + 'AA'].join('-'),
    () => 'gh' + 'p_' + g.alnum(36),
    () => 'github' + '_pat_' + g.alnum(22) + '_' + g.alnum(59),
    () => 'gl' + 'pat-' + g.alnum(20),
    () => 'AK' + 'IA' + g.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16),
    () => 'xo' + 'xb-' + String(g.int(1e12)) + '-' + g.alnum(24),
    () => 'AI' + 'za' + g.chars(b64url, 35),
    () => 'sk' + '_live_' + g.alnum(24),
    () => 'h' + 'f_' + g.alnum(34),
    () => 'S' + 'G.' + g.chars(b64url, 22) + '.' + g.chars(b64url, 43),
    () => 'np' + 'm_' + g.alnum(36),
    () => 'ey' + 'J' + g.chars(b64url, 30) + '.ey' + 'J' + g.chars(b64url, 60) + '.' + g.chars(b64url, 43),
    () => `postgres://app:${g.alnum(14)}@db.internal:5432/app`,
    () => `Authorization: Bearer ${g.alnum(40)}`,
    () => `DB_PASSWORD=${g.alnum(16)}`,
    () => `"api_key": "${g.alnum(32)}"`,
    () => `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${g.alnum(86)}==;EndpointSuffix=core`,
  ];
  return g.pick(makers)();
}

const WORDS = (
  'the a to of and in is it for that on with as this we be by are you if or from build test run file ' +
  'function value return error config user session token count key cache request response server ' +
  'handler module import export type interface password reset flow secret manager task-list risk-based ' +
  'migration schema index query update insert select where limit order group commit branch merge'
).split(' ');

const CODE = [
  'const token = await getToken(url);\nif (!token) throw new Error("missing token");\n',
  'export interface LoginInput {\n  username: string;\n  password: string;\n}\n',
  'def authenticate(user, password):\n    return check_password_hash(user.password_hash, password)\n',
  'apiKey: process.env.OPENAI_API_KEY,\nmaxTokens: 4096,\ntemperature: 0.2,\n',
  'for (const [key, value] of Object.entries(map)) {\n  out[key] = normalize(value);\n}\n',
  'const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };\n',
  'session_token = request.cookies.get("session")\nif session_token is None:\n    return redirect(login_url)\n',
  'SELECT id, email FROM users WHERE id = $1 AND deleted_at IS NULL;\n',
];

export function buildCorpus(opts: { bytes: number; secretEvery?: number; seed?: number }): string[] {
  const g = new Gen(opts.seed ?? 42);
  const turns: string[] = [];
  let total = 0;
  let sinceSecret = 0;
  while (total < opts.bytes) {
    const target = 300 + g.int(6000);
    let s = '';
    while (s.length < target) {
      const r = g.int(10);
      if (r < 4) {
        const n = 8 + g.int(30);
        const words: string[] = [];
        for (let i = 0; i < n; i++) words.push(g.pick(WORDS));
        s += words.join(' ') + '.\n';
      } else if (r < 6) s += g.pick(CODE);
      else if (r === 6)
        s += `commit ${g.hex(40)}\nAuthor: Dev <dev@example.com>\n    fix: update src/core/${g.pick(WORDS)}.ts\n`;
      else if (r === 7)
        s += `{"id":"${g.hex(8)}-${g.hex(4)}-4${g.hex(3)}-a${g.hex(3)}-${g.hex(12)}","path":"/home/dev/project/src/${g.pick(WORDS)}.ts","ok":true}\n`;
      else if (r === 8)
        s += `See https://docs.example.com/guide/${g.pick(WORDS)}?page=${g.int(9)} and ./node_modules/.bin/vitest\n`;
      else s += `<img src="data:image/png;base64,${g.chars(ALNUM + '+/', 60)}==">\n`;
      if (opts.secretEvery !== undefined && (sinceSecret += 1) >= opts.secretEvery) {
        sinceSecret = 0;
        s += `here it is: ${fakeSecret(g)} ok\n`;
      }
    }
    turns.push(s);
    total += s.length;
  }
  // Flat strings, as a harvest gets them from JSON.parse (concatenation leaves rope strings behind).
  return JSON.parse(JSON.stringify(turns)) as string[];
}

/**
 * Inputs built to make a careless pattern backtrack or rescan: long runs after a prefix, unclosed
 * quotes and blocks, repeated keywords and separators. `n` characters each, about.
 */
export function adversarialInputs(n: number): string[] {
  return [
    'a'.repeat(n),
    'sk-' + 'a'.repeat(n),
    'password=' + 'x'.repeat(n),
    'password: "' + 'x '.repeat(n / 2),
    '-----BEGIN RSA PRIVATE KEY-----\n' + 'A'.repeat(n),
    '-----BEGIN RSA PRIVATE KEY-----' + ' -----'.repeat(n / 6),
    'eyJ' + 'a'.repeat(n) + '.' + 'b'.repeat(n),
    'token '.repeat(n / 6),
    'key=key=key='.repeat(n / 12),
    '://:'.repeat(n / 4),
    'https://u:' + 'p'.repeat(n) + 'x',
    'https://' + 'u@'.repeat(n / 2) + ':p',
    'Authorization: Bearer ' + 'x'.repeat(n),
    ('AKIA' + 'A'.repeat(16) + ' ' + 'a'.repeat(40) + ' ').repeat(n / 64),
    ('AROA' + 'A'.repeat(16) + ' ').repeat(n / 21),
    '_-'.repeat(n / 2),
    'ops_eyJ' + 'A'.repeat(n),
    'lin_api_' + '_'.repeat(n),
    'xoxo-' + '-'.repeat(n),
  ];
}

/** The adversarial inputs (200,000 characters) that take longer than `budgetMs` each; `[]` is the goal. */
export function adversarialOverBudget(budgetMs = 1000): { input: number; ms: number }[] {
  const slow: { input: number; ms: number }[] = [];
  adversarialInputs(200_000).forEach((input, i) => {
    const t0 = performance.now();
    redactSecrets(input);
    const ms = performance.now() - t0;
    if (ms >= budgetMs) slow.push({ input: i, ms });
  });
  return slow;
}

export interface BenchmarkResult {
  /** Bytes (= characters: the corpus is ASCII) in each corpus. */
  bytes: number;
  /** No secrets (prose, code, logs, JSON, URLs, SHAs, UUIDs, small base64 images). */
  cleanMBps: number;
  /** About one secret per 4 KB turn. */
  typicalMBps: number;
  /** A secret every ~300 bytes. */
  denseMBps: number;
  /** The anchor over the typical corpus: `JSON.parse(JSON.stringify(turn))` per turn. */
  anchorMBps: number;
  /** Redaction time ÷ anchor time on the typical corpus (lower is faster; compare across machines). */
  typicalVsAnchor: number;
  /** Whether 20 MB of clean text took under 3 s (the budget the harvest was designed for). */
  cleanWithinBudget: boolean;
}

type Work = (turn: string) => unknown;
const jsonRoundTrip: Work = (turn) => JSON.parse(JSON.stringify(turn));

/** Best-of-`repeats` milliseconds for `work` over every turn. */
export function bestOf(turns: readonly string[], repeats: number, work: Work = redactSecrets): number {
  let best = Infinity;
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    for (const s of turns) work(s);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** Best-of-`repeats` throughput in MB/s over turn-sized texts, one `redactSecrets` call per turn. */
export function benchmarkRedaction(opts: { bytes?: number; repeats?: number } = {}): BenchmarkResult {
  const bytes = opts.bytes ?? 20_000_000;
  const repeats = opts.repeats ?? 3;
  const size = (turns: readonly string[]): number => turns.reduce((n, s) => n + s.length, 0);
  const clean = buildCorpus({ bytes });
  const typical = buildCorpus({ bytes, secretEvery: 25, seed: 3 });
  const dense = buildCorpus({ bytes, secretEvery: 2, seed: 7 });
  const cleanMs = bestOf(clean, repeats);
  const typicalMs = bestOf(typical, repeats);
  const anchorMs = bestOf(typical, repeats, jsonRoundTrip);
  const mbps = (turns: readonly string[], ms: number): number => size(turns) / 1e6 / (ms / 1000);
  return {
    bytes,
    cleanMBps: mbps(clean, cleanMs),
    typicalMBps: mbps(typical, typicalMs),
    denseMBps: mbps(dense, bestOf(dense, repeats)),
    anchorMBps: mbps(typical, anchorMs),
    typicalVsAnchor: typicalMs / anchorMs,
    cleanWithinBudget: (cleanMs * 20_000_000) / size(clean) < 3000,
  };
}
