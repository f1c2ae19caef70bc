import { describe, expect, it } from 'vitest';
import { adversarialInputs, buildCorpus } from './redact.bench.js';
import { SECRET_KINDS, redactSecrets, redactSecretsWithStats } from './redact.js';
import type { SecretKind } from './redact.js';

// Fake but well-formed secrets, assembled from fragments so this file holds no literal a scanner flags.
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LETTERS = UPPER + 'abcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const ALNUM = LETTERS + '0123456789';
let seed = 12345;
function rand(n: number, alphabet = ALNUM): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    s += alphabet.charAt((seed >>> 8) % alphabet.length);
  }
  // Make sure every fake mixes digits and both cases, as real keys do.
  return alphabet === ALNUM && n >= 6 ? 'a7Q' + s.slice(3) : s;
}
const b64url = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
const join = (...parts: string[]): string => parts.join('');

const OPENAI = join('sk', '-', rand(48));
const OPENAI_PROJ = join('sk', '-proj-', rand(64), '-', rand(40), '_', rand(20));
const ANTHROPIC = join('sk', '-ant-', 'api03-', rand(93, ALNUM + '-_'), 'AA');
const GITHUB = join('gh', 'p_', rand(36));
const GITHUB_PAT = join('github', '_pat_', rand(22), '_', rand(59));
const GITLAB = join('gl', 'pat-', rand(20));
const AWS_ID = join('AK', 'IA', rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'));
const AWS_SECRET = join('wJalr', rand(28), '/K7MD', '+b');
const SLACK = join('xo', 'xb-', '2918273645', '-', '4536271809', '-', rand(24));
const GOOGLE = join('AI', 'za', 'Sy', rand(33));
const STRIPE = join('sk', '_live_', rand(24));
const STRIPE_RK = join('rk', '_live_', rand(24));
const STRIPE_TEST = join('sk', '_test_', rand(24));
const HF = join('h', 'f_', rand(34));
const SENDGRID = join('S', 'G.', rand(22), '.', rand(43));
const NPM = join('np', 'm_', rand(36));
const JWT = join(
  b64url({ alg: 'HS256', typ: 'JWT' }),
  '.',
  b64url({ sub: '1234567890', iat: 1 }),
  '.',
  rand(43),
);
const PEM_BODY = [rand(64, ALNUM + '+/'), rand(64, ALNUM + '+/'), rand(20, ALNUM + '+/') + '=='].join('\n');
const PEM = join('-----BEGIN RSA ', 'PRIVATE KEY-----\n', PEM_BODY, '\n-----END RSA ', 'PRIVATE KEY-----');
const R = (kind: SecretKind): string => `[REDACTED:${kind}]`;

/** [label, input, expected output]. */
const CASES: [string, string, string][] = [
  ['OpenAI legacy key', `OPENAI_API_KEY=${OPENAI}`, `OPENAI_API_KEY=${R('openai-key')}`],
  ['OpenAI project key', `key ${OPENAI_PROJ} here`, `key ${R('openai-key')} here`],
  [
    'Anthropic key',
    `export ANTHROPIC_API_KEY="${ANTHROPIC}"`,
    `export ANTHROPIC_API_KEY="${R('anthropic-key')}"`,
  ],
  [
    'GitHub classic token',
    `git clone https://${GITHUB}@github.com/o/r`,
    `git clone https://${R('github-token')}@github.com/o/r`,
  ],
  ['GitHub fine-grained token', `token: ${GITHUB_PAT}`, `token: ${R('github-token')}`],
  [
    'GitHub gho/ghu/ghs/ghr',
    ['gho_', 'ghu_', 'ghs_', 'ghr_'].map((p) => p + rand(36)).join(' '),
    Array(4).fill(R('github-token')).join(' '),
  ],
  ['GitLab token', `GITLAB_TOKEN=${GITLAB}`, `GITLAB_TOKEN=${R('gitlab-token')}`],
  [
    'AWS key id + secret',
    `aws_access_key_id = ${AWS_ID}\naws_secret_access_key = ${AWS_SECRET}`,
    `aws_access_key_id = ${R('aws-access-key-id')}\naws_secret_access_key = ${R('aws-secret-key')}`,
  ],
  [
    'AWS secret next to key id',
    `creds ${AWS_ID} ${AWS_SECRET} ok`,
    `creds ${R('aws-access-key-id')} ${R('aws-secret-key')} ok`,
  ],
  [
    'AWS JSON credentials',
    `{"AccessKeyId": "${join('AS', 'IA', rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'))}", "SecretAccessKey": "${AWS_SECRET}"}`,
    `{"AccessKeyId": "${R('aws-access-key-id')}", "SecretAccessKey": "${R('aws-secret-key')}"}`,
  ],
  ['Slack token', `SLACK_BOT_TOKEN=${SLACK}`, `SLACK_BOT_TOKEN=${R('slack-token')}`],
  [
    'Slack webhook',
    'post to https://hooks.slack.com/services/T0123ABCD/B0456EFGH/' + rand(24),
    `post to https://hooks.slack.com/services/${R('slack-webhook')}`,
  ],
  ['Google API key', `?key=${GOOGLE}&q=x`, `?key=${R('google-api-key')}&q=x`],
  [
    'Google OAuth client secret',
    'GOOGLE_CLIENT_SECRET=' + join('GOC', 'SPX-', rand(28)),
    `GOOGLE_CLIENT_SECRET=${R('google-oauth')}`,
  ],
  ['Google access token', 'ya' + '29.' + rand(80, ALNUM + '-_') + ' expires', `${R('google-oauth')} expires`],
  [
    'PyPI token',
    'password = ' + join('py', 'pi-', 'AgEIcHlwaS5vcmc', rand(60)),
    `password = ${R('pypi-token')}`,
  ],
  ['Stripe keys', `${STRIPE} ${STRIPE_RK} ${STRIPE_TEST}`, Array(3).fill(R('stripe-key')).join(' ')],
  ['Hugging Face token', `HF_TOKEN=${HF}`, `HF_TOKEN=${R('huggingface-token')}`],
  ['SendGrid key', `sg key ${SENDGRID}.`, `sg key ${R('sendgrid-key')}.`],
  [
    'npm token',
    `//registry.npmjs.org/:_authToken=${NPM}`,
    `//registry.npmjs.org/:_authToken=${R('npm-token')}`,
  ],
  ['JWT', `cookie: session=${JWT}; Path=/`, `cookie: session=${R('jwt')}; Path=/`],
  ['PEM private key (multi-line)', `key:\n${PEM}\ndone`, `key:\n${R('private-key')}\ndone`],
  [
    'URL password',
    'postgres://admin:' + 'hunter2Pass' + '@db.example.com:5432/app',
    `postgres://admin:${R('url-password')}@db.example.com:5432/app`,
  ],
  [
    'Redis URL without user',
    'redis://:' + 'pa55word' + '@cache:6379/0',
    `redis://:${R('url-password')}@cache:6379/0`,
  ],
  [
    'Authorization Bearer',
    'Authorization: Bearer ' + rand(40),
    `Authorization: Bearer ${R('authorization')}`,
  ],
  [
    'Authorization Basic',
    `-H "authorization: Basic ${Buffer.from('user:' + 'p4ss').toString('base64')}"`,
    `-H "authorization: Basic ${R('authorization')}"`,
  ],
  [
    'JSON Authorization header',
    `{"Authorization": "token ${rand(32)}"}`,
    `{"Authorization": "token ${R('authorization')}"}`,
  ],
  ['bare Bearer', 'use Bearer ' + rand(32) + ' for now', `use Bearer ${R('bearer-token')} for now`],
  [
    'api_key= letters only, mid-sentence',
    'the API wants api_key=' + rand(32, LETTERS) + ' as a query param',
    `the API wants api_key=${R('api-key')} as a query param`,
  ],
  [
    'AWS secret that starts with a slash (not a path)',
    'AWS_SECRET_ACCESS_KEY=/' + rand(12) + '/' + rand(26),
    `AWS_SECRET_ACCESS_KEY=${R('aws-secret-key')}`,
  ],
  ['api_key=', 'api_key=' + 'super-secret-value-123456', `api_key=${R('api-key')}`],
  ['apikey: (YAML)', 'apikey: ' + 'q9w8e7r6t5', `apikey: ${R('api-key')}`],
  ['token= (query)', '/cb?token=' + 'abc123def456&state=x', `/cb?token=${R('token')}&state=x`],
  ['secret= quoted', "secret='" + 'topS3cret' + "'", `secret='${R('secret')}'`],
  ['password= env', 'DB_PASSWORD=' + 'supersecret', `DB_PASSWORD=${R('password')}`],
  ['passwd=', 'passwd=' + 'Tr0ub4dor&3', `passwd=${R('password')}`],
  [
    'access_token JSON',
    '{"access_token":"' + rand(30) + '","token_type":"bearer"}',
    `{"access_token":"${R('token')}","token_type":"bearer"}`,
  ],
  ['client_secret', 'client_secret: "' + rand(24) + '"', `client_secret: "${R('secret')}"`],
  [
    'JSON api_key pair',
    '{"api_key": "' + 'abc123def' + '", "n": 1}',
    `{"api_key": "${R('api-key')}", "n": 1}`,
  ],
  ['escaped JSON', '{\\"password\\":\\"' + 'hunter22' + '\\"}', `{\\"password\\":\\"${R('password')}\\"}`],
  ['env-style FOO_API_KEY', 'FOO_API_KEY=' + 'plainvalue', `FOO_API_KEY=${R('api-key')}`],
  ['YAML password', 'db:\n  password: ' + 'hunter', `db:\n  password: ${R('password')}`],
  ['CLI flag', 'mysql --password=' + 'p4ssw0rd -h db', `mysql --password=${R('password')} -h db`],
  ['prose keyword value', 'token ' + 'local-secret', `token ${R('token')}`],
  ['prose "is"', 'the password is ' + 'hunter2.', `the password is ${R('password')}.`],
  ['reference: password:', 'password: ' + 'assistant-secret', `password: ${R('password')}`],
  [
    'Azure AccountKey',
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=' +
      rand(86, ALNUM + '+/') +
      '==;EndpointSuffix=core.windows.net',
    `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${R('azure-storage-key')};EndpointSuffix=core.windows.net`,
  ],
  [
    'Azure SharedAccessKey',
    'Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=' + rand(43) + '=',
    `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${R('azure-storage-key')}`,
  ],
  [
    'Azure SAS sig=',
    'https://a.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=' + rand(40) + '%3D',
    `https://a.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=${R('azure-sas')}`,
  ],
  [
    'Azure SharedAccessSignature',
    'SharedAccessSignature=' + 'sv=2022&sr=c&sp=r',
    `SharedAccessSignature=${R('azure-sas')}`,
  ],
  [
    'SQL Server connection string',
    'Server=tcp:db,1433;Database=app;User Id=sa;Password=' + 'S3cr3t!pw' + ';',
    `Server=tcp:db,1433;Database=app;User Id=sa;Password=${R('db-password')};`,
  ],
  [
    'ODBC braced Pwd',
    'Driver={ODBC Driver 18};Server=x;Uid=u;Pwd={' + 'p@ss;word' + '};',
    `Driver={ODBC Driver 18};Server=x;Uid=u;Pwd={${R('db-password')}};`,
  ],
  [';PWD=', 'DSN=x;UID=u;PWD=' + 'xyz987', `DSN=x;UID=u;PWD=${R('db-password')}`],
  [
    'Shopify token',
    `X-Shopify-Access-Token: ${join('shp', 'at_', rand(32, HEX))}`,
    `X-Shopify-Access-Token: ${R('shopify-token')}`,
  ],
  [
    'Linear key',
    `linear.init(${JSON.stringify(join('lin', '_api_', rand(40)))})`,
    `linear.init("${R('linear-key')}")`,
  ],
  [
    '1Password service-account token',
    `op run --token ${join('ops', '_eyJ', b64url({ email: 'x@1passwordserviceaccounts.com', k: rand(43) }))}`,
    `op run --token ${R('onepassword-token')}`,
  ],
  ['short OpenAI-style key', `use ${join('sk', '-1234567890abcdef')} here`, `use ${R('openai-key')} here`],
  [
    'Slack app token (64 hex)',
    join('xa', 'pp-1-A', rand(10), '-', rand(13, '0123456789'), '-', rand(64, HEX)),
    R('slack-token'),
  ],
  [
    'token as the URL user (x-oauth-basic)',
    `"git+https://${rand(40, HEX)}:x-oauth-basic@github.com/acme/lib.git"`,
    `"git+https://${R('github-token')}:x-oauth-basic@github.com/acme/lib.git"`,
  ],
  [
    'URL user with @ and a password with #',
    'postgres://admin@orders-db:' + 'p4#ss?Word' + '@orders-db.postgres.database.azure.com/app',
    `postgres://admin@orders-db:${R('url-password')}@orders-db.postgres.database.azure.com/app`,
  ],
  [
    'GitHub token with an underscore',
    `GH_TOKEN=${join('gh', 'o_', rand(20), '_', rand(15))}`,
    `GH_TOKEN=${R('github-token')}`,
  ],
  ['password starting with !', 'DB_PASSWORD=' + '!x9Vjpd_Fk7', `DB_PASSWORD=${R('password')}`],
];

describe('redactSecrets: each kind', () => {
  it.each(CASES)('%s', (_label, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('redacts a key that reaches the end of the text and a PEM whose END line was clipped', () => {
    expect(redactSecrets(GITHUB)).toBe(R('github-token'));
    const clipped = PEM.slice(0, PEM.indexOf('-----END'));
    expect(redactSecrets(`before\n${clipped}`)).toBe(`before\n${R('private-key')}\n`);
  });

  it('redacts a PEM with CRLF line ends and an OpenSSH key', () => {
    expect(redactSecrets(PEM.replace(/\n/g, '\r\n') + '\r\nok')).toBe(`${R('private-key')}\r\nok`);
    const ssh = join(
      '-----BEGIN OPENSSH ',
      'PRIVATE KEY-----\n',
      PEM_BODY,
      '\n-----END OPENSSH ',
      'PRIVATE KEY-----',
    );
    expect(redactSecrets(ssh)).toBe(R('private-key'));
  });

  it('redacts a JSON-escaped PEM (service-account file inside a string)', () => {
    const escaped = PEM.replace(/\n/g, '\\n');
    expect(redactSecrets(`{"private_key": "${escaped}\\n", "x": 1}`)).toBe(
      `{"private_key": "${R('private-key')}\\n", "x": 1}`,
    );
  });
});

describe('redactSecretsWithStats', () => {
  it('the examples cover every kind', () => {
    const seen = new Set<string>();
    for (const [, input] of CASES)
      for (const k of Object.keys(redactSecretsWithStats(input).kinds)) seen.add(k);
    expect([...SECRET_KINDS].filter((k) => !seen.has(k))).toEqual([]);
  });

  it('counts several secrets in one text by kind', () => {
    const text = [
      `export OPENAI_API_KEY=${OPENAI}`,
      `gh auth login --with-token <<< ${GITHUB}`,
      `curl -H "Authorization: Bearer ${JWT}" https://admin:${'s3cret'}@api.example.com`,
      `password: ${'hunter2'}`,
      PEM,
    ].join('\n');
    const r = redactSecretsWithStats(text);
    expect(r.count).toBe(6);
    expect(r.kinds).toEqual({
      'openai-key': 1,
      'github-token': 1,
      jwt: 1,
      'url-password': 1,
      password: 1,
      'private-key': 1,
    });
    for (const secret of [OPENAI, GITHUB, JWT, 'hunter2', PEM_BODY.slice(0, 20)]) {
      expect(r.text).not.toContain(secret);
    }
  });

  it('reports zero for text without secrets and returns it unchanged', () => {
    const r = redactSecretsWithStats('nothing to see here');
    expect(r).toEqual({ text: 'nothing to see here', count: 0, kinds: {} });
  });
});

describe('idempotence', () => {
  it('redacting twice equals redacting once', () => {
    for (const [, input] of CASES) {
      const once = redactSecrets(input);
      expect(redactSecrets(once)).toBe(once);
      expect(redactSecretsWithStats(once).count).toBe(0);
    }
  });

  it('keeps reference-style markers', () => {
    for (const s of [
      'api_key=[REDACTED]',
      'Authorization: Bearer [REDACTED]',
      'password: [REDACTED_DB_PASS]',
    ]) {
      expect(redactSecrets(s)).toBe(s);
    }
  });
});

const NOT_SECRETS = [
  'Please reset your password and try again.',
  'The token count exceeded the limit (128000 tokens); token usage is high.',
  'the gate rejected the edit; held-out 1.000 -> 0.000 reject',
  'Use the task-list component with risk-based scoring on the desk-lamp page.',
  'sk-learn is great; the ghp_ prefix marks GitHub tokens; hf_hub_download(repo_id=x)',
  'commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: Dev <dev@example.com>',
  'request id 123e4567-e89b-12d3-a456-426614174000 failed',
  'edit /home/dev/project/src/core/password-reset.ts and C:\\Users\\dev\\secret-santa\\app.ts',
  'see https://example.com/docs?page=2, http://localhost:3000/api and ssh://git@host:22/repo.git',
  'git@github.com:owner/repo.git and mailto:someone@example.com',
  'const token = await getToken(url);\nif (!token) throw new Error("missing token");',
  'export interface Login {\n  username: string;\n  password: string;\n  token?: Token;\n}',
  'apiKey: process.env.OPENAI_API_KEY,\nmaxTokens: 4096,',
  'def login(user, password):\n    if password == confirm_password:\n        self.token = token',
  'headers = { Authorization: `Bearer ${token}` }; const secret = config.secret;',
  'max_tokens=1024, tokens_used: 1234, {"n_tasks": 5, "token_count": 17}',
  'for key, value in items:\n    out[key] = value\nObject.keys(obj); key: "id"',
  'export PWD=/home/me; cd $PWD; pwd=$(pwd)',
  "password=os.environ['DB_PASSWORD']\ntoken=$(cat ~/.token)\napi_key=${API_KEY}",
  'API_KEY=<your-api-key>\npassword: ********\nSECRET_KEY=xxxxxxxx\nOPENAI_API_KEY=\n',
  'npm_config_registry=https://registry.npmjs.org/ npm_lifecycle_event=test npm_package_name',
  '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">',
  'Secret Manager stores credentials. The secret is out. A bearer token is required.',
  'The AccountKey field is required; the Authorization header is missing.',
  'Bearer authentication is used by the gpt-4o token limits; token o200k_base.',
  '| password | string | required |\n|---|---|---|',
  '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----',
  'The password must contain a digit. Enter your password: ',
  'errors = { password: "Password must be at least 8 characters" }',
  'type Props = { onTokenChange: (token: string) => void; secret?: SecretStr }',
  'kubectl create secret generic db-creds --from-file=./password.txt',
  'python -m pip install passlib; bypass=true; compass: north',
  'version v1.2.3 of secret-handler, token v2',
  'secret: process.env.JWT_SECRET!, jwt.sign(payload, secret, { expiresIn: "1h" })',
  'api_key: str = Field(..., env="API_KEY")\naccess_token: Optional[str] = None',
  'token: ${{ secrets.GITHUB_TOKEN }}\npassword: !Ref DbPassword\nsigning_key: ${SIGNING_KEY}',
  'const { data: { session_token } } = await supabase.auth.getSession(); refresh_token: refreshToken,',
  'KEY_FILE=/etc/ssl/private/key.pem private_key_path: ~/.ssh/id_ed25519 secret_name: prod/db',
  'see https://example.com/sk-2024-annual-report-final-v2 and the task-management-system-v2 docs',
  // `sk-` with fewer than 10 characters, or inside a word.
  'pip install sk-learn sk-video; sk-123456789; task-list-1234567890 disk-usage-1234567890 desk-0123456789ab',
  // The unique ids of IAM roles and users name a principal; they grant nothing.
  `"RoleId": "${join('AR', 'OA', 'X7KQ2MZP4RNWB3TJ')}", "UserId": "${join('AI', 'DA', 'Q5HZ3M7KXW2NPJ4B')}"`,
  // A switch of a `*_PWD` variable (print working directory), not a password.
  'OCODEX_DOCKER_MOUNT_PWD=1\nOCODEX_DOCKER_MOUNT_PWD=true\nexport OCODEX_DOCKER_MOUNT_PWD=0',
  '- OCODEX_DOCKER_MOUNT_PWD: `1/true` mounts workspace to `/work` (default true).',
  '- `OCODEX_DOCKER_MOUNT_PWD`: `1/true` to mount current dir; MOUNT_PWD="0|1"; HOST_PWD: yes/no',
  'npm_config_user_agent_npm_version_10_x86=1 npm_package_devDependencies_typescript_v=5.9',
];

describe('no false positives', () => {
  it.each(NOT_SECRETS.map((s) => [s]))('%s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});

// Wall time is measured by the bench (`redact.bench.ts`: throughput and the adversarial inputs' budget);
// these tests check what the same inputs come out as.
describe('large and adversarial inputs', () => {
  it('20 MB of mixed text has no false positive, and a dense corpus no missed injected secret', () => {
    let found = 0;
    for (const s of buildCorpus({ bytes: 20_000_000 })) found += redactSecretsWithStats(s).count;
    expect(found).toBe(0);

    const dense = buildCorpus({ bytes: 2_000_000, secretEvery: 3, seed: 9 });
    for (const s of dense) {
      for (const line of redactSecrets(s).split('\n')) {
        if (line.startsWith('here it is:')) expect(line).toContain('[REDACTED:');
      }
    }
  });

  it('a secret after each pathological input is still redacted, and redacting again changes nothing', () => {
    for (const input of adversarialInputs(20_000)) {
      const out = redactSecrets(`${input}\n${GITHUB}`);
      expect(out.endsWith(`\n${R('github-token')}`)).toBe(true);
      expect(out).not.toContain(GITHUB);
      expect(redactSecrets(out)).toBe(out);
    }
  });
});
