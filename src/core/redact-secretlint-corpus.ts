/**
 * A generated corpus of fake secrets, one group per detector of secretlint's recommended preset
 * (`redact-secretlint.test.ts` runs secretlint over it as the oracle of the redactor). Every value is
 * random bytes from a seeded generator, assembled at run time, so no literal in the repository looks
 * like a key to a scanner. Each secret sits in transcript-like text: a shell command, an `.env` line,
 * a JSON config, a stack trace, prose. Shapes follow the real formats (lengths, prefixes, alphabets)
 * within what the preset's rule reports.
 */
import { seededRandom } from './rng.js';

export interface SecretExample {
  /**
   * `<rule id>#<message id>` of the preset, e.g. `@secretlint/secretlint-rule-github#GITHUB_TOKEN`, and
   * `:<variant>` when one detector reports shapes we treat apart.
   */
  detector: string;
  /** The whole text, as a stored turn would hold it. */
  text: string;
  /** What secretlint is told the file is called (some rules look at the name: `.npmrc`, `*.json`). */
  filePath: string;
  /** The planted secret's bytes (for a URL, the password only). */
  secret: string;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const B64URL = ALNUM + '-_';

export class FakeRng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
  chars(alphabet: string, n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet.charAt(this.int(0, alphabet.length - 1));
    return s;
  }
  /** `n` characters of `alphabet` holding at least one upper-case letter, one lower-case and one digit. */
  mixed(alphabet: string, n: number): string {
    const body = this.chars(alphabet, n - 3);
    const at = this.int(0, body.length);
    return (
      body.slice(0, at) +
      this.pick([...UPPER]) +
      this.pick([...LOWER]) +
      this.pick([...DIGITS]) +
      body.slice(at)
    );
  }
}

/** Where a secret sits in a turn. `name` is a variable name fitting the secret (`GITHUB_TOKEN`). */
type Context = (s: string, name: string, r: FakeRng) => string;

const trace = (head: string, r: FakeRng): string =>
  `${head}\n    at Client.request (/app/node_modules/sdk/dist/client.js:${r.int(40, 900)}:${r.int(5, 40)})\n` +
  `    at async main (/app/src/main.ts:${r.int(5, 90)}:5)`;

/** Contexts for a self-describing token (a distinctive prefix): only its shape gives it away in some. */
const TOKEN_CONTEXTS: readonly Context[] = [
  (s, name) => `$ export ${name}=${s}\n$ npm run deploy`,
  (s, name) => `# .env\nNODE_ENV=production\n${name}=${s}\nPORT=3000`,
  (s, name) => JSON.stringify({ service: 'billing', [name.toLowerCase()]: s, retries: 3 }, null, 2),
  (s, _n, r) => trace(`Error: 401 Unauthorized: credential ${s} was revoked`, r),
  (s) => `I pasted the wrong value earlier, it was ${s}. Can you rotate it?`,
  (s) => `$ ./scripts/check-credential.sh ${s} --verbose\nok: credential accepted`,
  (s) => JSON.stringify({ level: 'debug', msg: 'loaded config', value: s }),
];

/** Contexts for a value whose name says what it is (`aws_secret_access_key = …`). */
const NAMED_CONTEXTS: readonly Context[] = [
  (s, name) => `$ export ${name.toUpperCase()}=${s}`,
  (s, name) => `[default]\nregion = eu-west-1\n${name.toLowerCase()} = ${s}\n`,
  (s, name) => `{\n  "${name}": "${s}",\n  "region": "us-east-1"\n}`,
  (s, name, r) => trace(`TypeError: invalid options { ${name}: '${s}' }`, r),
  (s, name) => `client = boto3.client("s3", ${name.toLowerCase()}="${s}")`,
];

/** Contexts for a URL carrying a password. */
const URL_CONTEXTS: readonly Context[] = [
  (u) => `$ git clone ${u}\nCloning into 'repo'...`,
  (u, name) => `${name}=${u}`,
  (u) => JSON.stringify({ database: { url: u, pool: 10 } }, null, 2),
  (u, _n, r) => trace(`MongoServerError: bad auth : Authentication failed. (connecting to ${u})`, r),
  (u) => `$ psql "${u}" -c 'select 1'`,
  (u) => `SQLALCHEMY_DATABASE_URI = '${u}'`,
];

interface Group {
  detector: string;
  /** Returns the secret and the text to embed (for URLs the URL, for PEM blocks the block). */
  make: (r: FakeRng) => { secret: string; embed: string };
  contexts: readonly Context[];
  names: readonly string[];
  filePath?: string;
}

const RULE = (id: string, message: string): string => `@secretlint/secretlint-rule-${id}#${message}`;
const plain = (f: (r: FakeRng) => string) => (r: FakeRng) => {
  const s = f(r);
  return { secret: s, embed: s };
};
/** A random base64 key body that starts as DER does (`MI…`) or as an OpenSSH key does. */
const pemBody = (r: FakeRng, openssh: boolean): string =>
  (openssh ? ['b3Blbn', 'NzaC1rZXktdjE'].join('') : 'MII') + r.mixed(B64, r.int(160, 1600));

function pem(r: FakeRng): { secret: string; embed: string } {
  const label = r.pick(['RSA ', 'EC ', '', 'OPENSSH ', 'DSA ']);
  const body = pemBody(r, label === 'OPENSSH ');
  const lines = body.match(/.{1,64}/g) ?? [];
  const dashes = '-'.repeat(5);
  const begin = `${dashes}BEGIN ${label}PRIVATE KEY${dashes}`;
  const end = `${dashes}END ${label}PRIVATE KEY${dashes}`;
  const sep = r.pick(['\n', '\n', '\\n', ' ']); // a file, a JSON-escaped string, an env var folded to one line
  return { secret: lines.join('\n'), embed: [begin, ...lines, end].join(sep) };
}

const PEM_CONTEXTS: readonly Context[] = [
  (p) => `$ cat ~/.ssh/deploy_key\n${p}\n$ chmod 600 ~/.ssh/deploy_key`,
  (p) => `PRIVATE_KEY="${p}"`,
  (p) => `{"name": "signer", "pem": "${p}"}`,
  (p, _n, r) => trace(`Error: error:1E08010C:DECODER routines::unsupported\n  key: ${p}`, r),
];

function serviceAccountJson(r: FakeRng): { secret: string; embed: string } {
  const body = pemBody(r, false);
  const lines = body.match(/.{1,64}/g) ?? [];
  const dashes = '-'.repeat(5);
  const key = `${dashes}BEGIN PRIVATE KEY${dashes}\n${lines.join('\n')}\n${dashes}END PRIVATE KEY${dashes}\n`;
  const project = `demo-${r.chars(LOWER + DIGITS, 6)}`;
  const json = {
    type: 'service_account',
    project_id: project,
    private_key_id: r.chars(HEX, 40),
    private_key: key,
    client_email: `ci@${project}.iam.gserviceaccount.com`,
    client_id: r.chars(DIGITS, 21),
  };
  return { secret: lines.join('\n'), embed: JSON.stringify(json, null, 2) };
}

/** A 1Password service-account token: `ops_` and a base64 JSON object whose encoding ends in `fQ`. */
function onePassword(r: FakeRng): string {
  const obj = {
    email: `${r.chars(LOWER + DIGITS, 13)}@1passwordserviceaccounts.com`,
    muk: { alg: 'A256GCM', ext: true, k: r.chars(B64URL, 43), key_ops: ['encrypt', 'decrypt'], kty: 'oct' },
    secretKey: `A3-${r.chars(UPPER + DIGITS, 6)}-${r.chars(UPPER + DIGITS, 6)}-${r.chars(UPPER + DIGITS, 5)}`,
    srpX: r.chars(HEX, 64),
    signInAddress: 'my.1password.com',
    userAuth: { method: 'SRPg-4096', alg: 'PBES2g-HS256', iterations: 650000, salt: r.chars(B64URL, 22) },
  };
  let json = JSON.stringify(obj);
  while (json.length % 3 !== 1) json = json.slice(0, -1) + ' }'; // so the last `}` encodes as `fQ==`
  return 'ops_' + Buffer.from(json).toString('base64');
}

/** Passwords as people and password managers make them (no `$`: in a shell it would expand). */
const PASSWORD = ALNUM + '!#^&*._~-';
const password = (r: FakeRng): string => r.mixed(PASSWORD, r.int(8, 24));

function dbUrl(r: FakeRng): { secret: string; embed: string } {
  const pw = password(r);
  const user = r.pick(['app', 'svc_orders', 'admin@orders-db', 'readonly', 'etl']);
  const [scheme, port] = r.pick([
    ['postgres', 5432],
    ['postgresql', 5432],
    ['mysql', 3306],
    ['mysqlx', 33060],
    ['jdbc:mysql', 3306],
    ['mongodb', 27017],
    ['mongodb+srv', 0],
  ] as const);
  const host =
    port === 0
      ? `cluster0.${r.chars(LOWER, 5)}.mongodb.net`
      : `db-${r.int(1, 9)}.internal.example.com:${port}`;
  return { secret: pw, embed: `${scheme}://${user}:${pw}@${host}/orders?sslmode=require` };
}

function basicAuthUrl(r: FakeRng): { secret: string; embed: string } {
  const pw = r.mixed(ALNUM + '-_', r.int(8, 32));
  const scheme = r.pick(['https', 'http', 'ftp', 'ftps']);
  const user = r.pick(['deploy', 'ci-bot', 'jenkins', 'proxy_user']);
  return {
    secret: pw,
    embed: `${scheme}://${user}:${pw}@git.${r.chars(LOWER, 6)}.example.org/team/repo.git`,
  };
}

const slack = (r: FakeRng): string =>
  r.pick([
    () => ['xo', 'xb-', r.chars(DIGITS, 12), '-', r.chars(DIGITS, 13), '-', r.mixed(ALNUM, 24)].join(''),
    () =>
      [
        'xo',
        'xp-',
        r.chars(DIGITS, 12),
        '-',
        r.chars(DIGITS, 12),
        '-',
        r.chars(DIGITS, 13),
        '-',
        r.chars(HEX, 32),
      ].join(''),
    // An app token ends in 64 hex digits; the rule reads at most 40 per part, so the corpus stops there.
    () =>
      ['xa', 'pp-1-A', r.chars(UPPER + DIGITS, 10), '-', r.chars(DIGITS, 13), '-', r.chars(HEX, 40)].join(''),
    () => ['xo', 'xa-2-', r.chars(DIGITS, 12), '-', r.chars(DIGITS, 13), '-', r.mixed(ALNUM, 32)].join(''),
    () => ['xo', 'xr-', r.chars(DIGITS, 12), '-', r.mixed(ALNUM, 40)].join(''),
    () => ['xo', 'xo-', r.chars(DIGITS, 12), '-', r.mixed(ALNUM, 30)].join(''),
  ])();

/** An OpenAI key: project, service-account and admin keys carry `T3BlbkFJ` between two random halves. */
function openai(r: FakeRng): string {
  const mark = ['T3Blbk', 'FJ'].join('');
  const end = (n: number): string => r.chars(B64URL, n - 1) + r.pick([...ALNUM]); // ends on a word character
  if (r.int(0, 3) === 0) return ['sk', '-', r.mixed(ALNUM, 20), mark, r.mixed(ALNUM, 20)].join('');
  const n = r.pick([74, 58]);
  return ['sk', '-', r.pick(['proj', 'svcacct', 'admin']), '-', r.chars(B64URL, n), mark, end(n)].join('');
}

/** A SendGrid key: `SG.`, 22 and 43 characters (at most one `-` in the second part, as the rule reads). */
function sendgrid(r: FakeRng): string {
  const second = r.mixed(ALNUM + '_', 43);
  const dash = r.int(1, 41);
  return [
    'S',
    'G.',
    r.mixed(ALNUM + '_', 22),
    '.',
    r.int(0, 1) === 0 ? second : second.slice(0, dash) + '-' + second.slice(dash + 1),
  ].join('');
}

export const GROUPS: readonly Group[] = [
  {
    detector: RULE('aws', 'AWSSecretAccessKey'),
    make: plain((r) => r.mixed(B64, 39) + r.pick([...ALNUM])),
    contexts: NAMED_CONTEXTS,
    names: [
      'aws_secret_access_key',
      'AWS_SECRET_ACCESS_KEY',
      'SecretAccessKey',
      'secretAccessKey',
      'secret_access_key',
    ],
  },
  {
    detector: RULE('aws', 'AWSAccessKeyID'),
    make: plain(
      (r) => r.pick(['AK' + 'IA', 'AS' + 'IA', 'A3T' + r.pick([...UPPER])]) + r.chars(UPPER + '234567', 16),
    ),
    contexts: [...TOKEN_CONTEXTS, ...NAMED_CONTEXTS],
    names: ['aws_access_key_id', 'AccessKeyId'],
  },
  {
    // The same rule reports the unique ids of IAM users, roles, groups and policies.
    detector: RULE('aws', 'AWSAccessKeyID') + ':unique-ids',
    make: plain(
      (r) =>
        r.pick(['AG' + 'PA', 'AI' + 'DA', 'AR' + 'OA', 'AI' + 'PA', 'AN' + 'PA', 'AN' + 'VA']) +
        r.chars(UPPER + '234567', 16),
    ),
    contexts: [...TOKEN_CONTEXTS, ...NAMED_CONTEXTS],
    names: ['RoleId', 'UserId', 'aws_user_id'],
  },
  {
    detector: RULE('aws', 'AWSAccountID'),
    make: plain((r) =>
      r.int(0, 1) === 0
        ? r.chars(DIGITS, 12)
        : [r.chars(DIGITS, 4), r.chars(DIGITS, 4), r.chars(DIGITS, 4)].join('-'),
    ),
    contexts: NAMED_CONTEXTS,
    names: ['aws_account_id', 'Account', 'AccountId', 'AWS_ACCOUNT_ID'],
  },
  {
    detector: RULE('gcp', 'PrivateKeyJSON'),
    make: serviceAccountJson,
    contexts: [(json) => json],
    names: ['key'],
    filePath: 'service-account.json',
  },
  { detector: RULE('privatekey', 'PrivateKey'), make: pem, contexts: PEM_CONTEXTS, names: ['key'] },
  {
    detector: RULE('npm', 'NPM_ACCESS_TOKEN'),
    make: plain((r) => 'np' + 'm_' + r.mixed(r.int(0, 3) === 0 ? ALNUM + '_' : ALNUM, 36)),
    contexts: [...TOKEN_CONTEXTS, (s) => `//registry.npmjs.org/:_authToken=${s}`],
    names: ['NPM_TOKEN', 'NODE_AUTH_TOKEN'],
  },
  {
    detector: RULE('npm', 'Npmrc_authToken'),
    make: plain((r) =>
      r.pick([
        () => 'np' + 'm_' + r.mixed(ALNUM, 36),
        () =>
          [
            r.chars(HEX, 8),
            r.chars(HEX, 4),
            '4' + r.chars(HEX, 3),
            'a' + r.chars(HEX, 3),
            r.chars(HEX, 12),
          ].join('-'),
        () => r.mixed(B64, 64) + '==',
      ])(),
    ),
    contexts: [
      (s) =>
        `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${s}\nalways-auth=true\n`,
    ],
    names: ['token'],
    filePath: '.npmrc',
  },
  {
    detector: RULE('npm', 'PackageJSON_xOauthToken'),
    make: (r) => {
      const s = r.int(0, 1) === 0 ? r.chars(HEX, 40) : 'gh' + 'p_' + r.mixed(ALNUM, 36);
      return { secret: s, embed: `git+https://${s}:x-oauth-basic@github.com/acme/private-lib.git` };
    },
    contexts: [(u) => JSON.stringify({ name: 'app', dependencies: { 'private-lib': u } }, null, 2)],
    names: ['dep'],
    filePath: 'package.json',
  },
  {
    detector: RULE('basicauth', 'BasicAuth'),
    make: basicAuthUrl,
    contexts: URL_CONTEXTS,
    names: ['REMOTE_URL'],
  },
  {
    detector: RULE('slack', 'SLACK_TOKEN'),
    make: plain(slack),
    contexts: TOKEN_CONTEXTS,
    names: ['SLACK_BOT_TOKEN'],
  },
  {
    detector: RULE('slack', 'IncomingWebhook'),
    make: (r) => {
      const path = [
        'T',
        r.chars(UPPER + DIGITS, 10),
        '/B',
        r.chars(UPPER + DIGITS, 10),
        '/',
        r.mixed(ALNUM, 24),
      ].join('');
      return { secret: path, embed: `https://hooks.slack.com/services/${path}` };
    },
    contexts: [
      ...URL_CONTEXTS,
      (u) => `$ curl -X POST -H 'Content-type: application/json' --data '{"text":"deployed"}' ${u}`,
    ],
    names: ['SLACK_WEBHOOK_URL'],
  },
  {
    detector: RULE('sendgrid', 'SENDGRID_KEY'),
    make: plain(sendgrid),
    contexts: TOKEN_CONTEXTS,
    names: ['SENDGRID_API_KEY'],
  },
  {
    detector: RULE('shopify', 'SHOPIFY_KEY'),
    make: plain(
      (r) =>
        r.pick(['shp' + 'at_', 'shp' + 'ca_', 'shp' + 'pa_', 'shp' + 'ss_']) +
        (r.int(0, 1) === 0 ? r.chars(HEX, 32) : r.mixed(ALNUM, r.int(32, 64))),
    ),
    contexts: TOKEN_CONTEXTS,
    names: ['SHOPIFY_ACCESS_TOKEN'],
  },
  {
    detector: RULE('github', 'GITHUB_TOKEN'),
    make: plain((r) =>
      r.int(0, 3) === 0
        ? ['github', '_pat_', r.mixed(ALNUM, 22), '_', r.mixed(ALNUM, 59)].join('')
        : r.pick(['ghp', 'gho', 'ghu', 'ghs', 'ghr']) +
          '_' +
          r.mixed(r.int(0, 3) === 0 ? ALNUM + '_' : ALNUM, 36),
    ),
    contexts: TOKEN_CONTEXTS,
    names: ['GITHUB_TOKEN', 'GH_TOKEN'],
  },
  {
    detector: RULE('openai', 'OPENAI_TOKEN'),
    make: plain(openai),
    contexts: TOKEN_CONTEXTS,
    names: ['OPENAI_API_KEY'],
  },
  {
    detector: RULE('anthropic', 'ANTHROPIC_API_KEY'),
    make: plain((r) => ['sk', '-ant-', r.pick(['api03', 'api04']), '-', r.mixed(B64URL, 93), 'AA'].join('')),
    contexts: TOKEN_CONTEXTS,
    names: ['ANTHROPIC_API_KEY'],
  },
  {
    detector: RULE('linear', 'LINEAR_API_TOKEN'),
    make: plain((r) => 'lin' + '_api_' + r.mixed(ALNUM, r.int(0, 3) === 0 ? r.int(32, 64) : 40)),
    contexts: TOKEN_CONTEXTS,
    names: ['LINEAR_API_KEY'],
  },
  {
    detector: RULE('1password', 'OPS_TOKEN'),
    make: plain(onePassword),
    contexts: TOKEN_CONTEXTS,
    names: ['OP_SERVICE_ACCOUNT_TOKEN'],
  },
  ...['MongoDBConnection', 'MySQLConnection', 'PostgreSQLConnection'].map((message) => ({
    detector: RULE('database-connection-string', message),
    make: (r: FakeRng) => {
      for (;;) {
        const u = dbUrl(r);
        const scheme = u.embed.slice(0, u.embed.indexOf('://'));
        const family = scheme.includes('mongo') ? 'Mongo' : scheme.includes('mysql') ? 'MySQL' : 'PostgreSQL';
        if (message.startsWith(family)) return u;
      }
    },
    contexts: URL_CONTEXTS,
    names: ['DATABASE_URL'],
  })),
];

/** `perGroup` examples of every group, cycling through its contexts; the same seed gives the same corpus. */
export function secretlintCorpus(opts: { seed?: number; perGroup?: number } = {}): SecretExample[] {
  const r = new FakeRng(opts.seed ?? 16);
  const out: SecretExample[] = [];
  for (const g of GROUPS) {
    for (let i = 0; i < (opts.perGroup ?? 14); i++) {
      const { secret, embed } = g.make(r);
      const context = g.contexts[i % g.contexts.length];
      if (context === undefined) throw new Error(`no context for ${g.detector}`);
      const text = context(embed, r.pick(g.names), r);
      out.push({ detector: g.detector, text, filePath: g.filePath ?? 'session-turn.txt', secret });
    }
  }
  return out;
}
