/**
 * Fake but well-formed credentials planted in prompts and assistant prose. Every prefix is built by
 * concatenation so this source file never contains a literal secret (or trips a secret scanner).
 * `needles` are the sensitive substrings a redaction test must never find in the store.
 */
import type { Rng } from './rng.js';

export const SECRET_KINDS = [
  'openai',
  'anthropic',
  'github',
  'aws',
  'slack',
  'stripe',
  'jwt',
  'pem',
  'postgres',
  'bearer',
  'api_key',
] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

export interface Secret {
  kind: SecretKind;
  /** The value(s) exactly as planted; each must be absent from the store after redaction. */
  needles: string[];
  /** A sentence with the secret, as a user would type it. */
  userText: string;
  /** A sentence with the secret, as an assistant would echo it. */
  assistantText: string;
}

const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const DIGITS = '0123456789';
const DASH = '-';

function b64url(json: unknown): string {
  return Buffer.from(JSON.stringify(json)).toString('base64url');
}

export function makeSecret(rng: Rng, kind: SecretKind): Secret {
  switch (kind) {
    case 'openai': {
      const v = ['sk', 'proj', rng.base64url(rng.int(60, 120))].join(DASH);
      return {
        kind,
        needles: [v],
        userText: rng.pick([
          `my OPENAI_API_KEY is ${v}, why does the client still get a 401?`,
          `use this key for the embeddings call: ${v}`,
          `I put ${v} in .env but it is not picked up`,
        ]),
        assistantText: `I set \`OPENAI_API_KEY\` to \`${v}\` in \`.env.local\` so the client can authenticate.`,
      };
    }
    case 'anthropic': {
      const v = ['sk', 'ant', 'api03', rng.base64url(93) + 'AA'].join(DASH);
      return {
        kind,
        needles: [v],
        userText: rng.pick([
          `here is the anthropic key ${v} - wire it into the config`,
          `ANTHROPIC_API_KEY=${v} is set, but the SDK says unauthorized`,
        ]),
        assistantText: `The SDK reads the key from the environment; with \`${v}\` exported the request succeeds.`,
      };
    }
    case 'github': {
      const v = 'gh' + 'p_' + rng.alnum(36);
      return {
        kind,
        needles: [v],
        userText: rng.pick([
          `use this token for the release workflow: ${v}`,
          `gh auth fails, my PAT is ${v}`,
        ]),
        assistantText: `I configured the remote as https://${v}@github.com/acme/app.git for the push.`,
      };
    }
    case 'aws': {
      const id = 'AK' + 'IA' + rng.fromAlphabet(UPPER_DIGITS, 16);
      const secret = rng.base64(40);
      return {
        kind,
        needles: [id, secret],
        userText: `the deploy fails with AccessDenied, creds are AWS_ACCESS_KEY_ID=${id} AWS_SECRET_ACCESS_KEY=${secret}`,
        assistantText: `I added a profile to ~/.aws/credentials:\n\n\`\`\`ini\n[deploy]\naws_access_key_id = ${id}\naws_secret_access_key = ${secret}\n\`\`\``,
      };
    }
    case 'slack': {
      const v = ['xo' + 'xb', rng.fromAlphabet(DIGITS, 12), rng.fromAlphabet(DIGITS, 13), rng.alnum(24)].join(
        DASH,
      );
      return {
        kind,
        needles: [v],
        userText: `post the build status to #deploys, the bot token is ${v}`,
        assistantText: `The notifier now posts with \`${v}\`; you should see the message in #deploys.`,
      };
    }
    case 'stripe': {
      const v = 'sk' + '_live_' + rng.alnum(rng.int(24, 40));
      return {
        kind,
        needles: [v],
        userText: `switch the checkout to live mode, key ${v}`,
        assistantText: `Checkout is now created with the live key \`${v}\`.`,
      };
    }
    case 'jwt': {
      const v = [
        b64url({ alg: 'HS256', typ: 'JWT' }),
        b64url({ sub: rng.uuid(), name: 'dev', iat: 1760000000 + rng.int(0, 9999999), exp: 1790000000 }),
        rng.base64url(43),
      ].join('.');
      return {
        kind,
        needles: [v],
        userText: `decode this JWT and tell me why the API rejects it: ${v}`,
        assistantText: `The token \`${v}\` is signed with HS256 and its \`exp\` is fine; the audience is missing.`,
      };
    }
    case 'pem': {
      const label = rng.pick(['RSA ', 'EC ', '', 'OPENSSH ']) + 'PRIVATE' + ' KEY';
      const body: string[] = [];
      for (let i = rng.int(8, 20); i > 0; i--) body.push(rng.base64(64));
      body.push(rng.base64(rng.int(24, 60)) + '==');
      const dashes = DASH.repeat(5);
      const v = `${dashes}BEGIN ${label}${dashes}\n${body.join('\n')}\n${dashes}END ${label}${dashes}`;
      return {
        kind,
        needles: body,
        userText: `ssh to the box fails, this is the deploy key:\n${v}\nwhat is wrong with it?`,
        assistantText: `I wrote the key to \`deploy/id_rsa\`:\n\n\`\`\`\n${v}\n\`\`\``,
      };
    }
    case 'postgres': {
      const user = rng.pick(['app', 'admin', 'svc_billing', 'postgres']);
      const pass = rng.alnum(rng.int(16, 28));
      const v = `postgres${'://'}${user}:${pass}@db-${rng.int(1, 9)}.internal.example.com:5432/${rng.pick(['app', 'billing', 'prod'])}`;
      return {
        kind,
        needles: [pass],
        userText: `migrations fail against ${v} with "relation does not exist"`,
        assistantText: `Set \`DATABASE_URL=${v}\` before running the migration.`,
      };
    }
    case 'bearer': {
      const token = rng.base64url(rng.int(32, 48));
      const header = 'Authorization: ' + 'Bear' + 'er ' + token;
      return {
        kind,
        needles: [token],
        userText: `this works in curl: curl -H "${header}" https://api.internal.example.com/v1/orders - why not in the app?`,
        assistantText: `The request needs the header \`${header}\`; the fetch wrapper was dropping it.`,
      };
    }
    case 'api_key': {
      const value = rng.alnum(32);
      const v = 'api' + '_key=' + value;
      return {
        kind,
        needles: [value],
        userText: `the weather API wants ${v} as a query param, add it to the client`,
        assistantText: `Requests now go to \`/v2/forecast?${v}\`.`,
      };
    }
  }
}

/** Collects every planted secret for `planted-secrets.txt` and the manifest. */
export interface PlantedRecord {
  kind: SecretKind;
  needles: string[];
  source: string;
  sessionId: string;
  role: 'user' | 'assistant';
}
