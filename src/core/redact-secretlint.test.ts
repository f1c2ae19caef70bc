/**
 * secretlint's recommended preset as the oracle of the redactor: over a generated corpus of fake
 * secrets (`redact-secretlint-corpus.ts`), every secret secretlint reports must be gone from
 * `redactSecrets`' output. The detectors we leave out are in one table with the reason, and the
 * table is checked both ways: each entry must still exist in the preset and must still leak.
 */
import path from 'node:path';
import { lintSource } from '@secretlint/core';
import { creator as preset } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { GROUPS, secretlintCorpus } from './redact-secretlint-corpus.js';
import type { SecretExample } from './redact-secretlint-corpus.js';
import { redactSecrets } from './redact.js';

// secretlint's own types, as its core takes and returns them (no import of its transitive types package).
type SecretLintCoreConfig = Parameters<typeof lintSource>[0]['options']['config'];
type SecretLintCoreResultMessage = Awaited<ReturnType<typeof lintSource>>['messages'][number];

/** Detectors (`<rule id>#<message id>`) the redactor deliberately does not cover, and why. */
const OUT_OF_SCOPE: Readonly<Record<string, string>> = {
  '@secretlint/secretlint-rule-aws#AWSAccountID':
    'out of scope: an account number names an account and grants nothing (AWS does not treat it as ' +
    'secret); it is context a reader of the transcript needs, like a project id',
  '@secretlint/secretlint-rule-aws#AWSAccessKeyID:unique-ids':
    'out of scope: `AIDA`/`AROA`/`AGPA`/`ANPA`… are the unique ids of IAM users, roles, groups and ' +
    'policies, printed in every CloudTrail event and ARN lookup; they grant nothing (access key ids, ' +
    '`AKIA`/`ASIA`, are covered), and looking for them too cost ~5 % of the harvest redaction time',
  '@secretlint/secretlint-rule-gcp#PrivateKeyP12':
    'out of scope: a binary .p12 file that secretlint reads from disk by its path; the harvest stores ' +
    'text turns, never binary files',
  '@secretlint/secretlint-rule-filter-comments#IGNORE_MESSAGE':
    'out of scope: not a detector, it silences findings after a `secretlint-disable` comment; a ' +
    'transcript is untrusted, so a comment in it must not switch redaction off',
};

// The AWS rule reports access key ids only with `enableIDScanRule`; we redact them, so check them too.
const CONFIG: SecretLintCoreConfig = {
  rules: [
    {
      id: preset.meta.id,
      rule: preset,
      rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }],
    },
  ],
};

async function lint(content: string, filePath: string): Promise<SecretLintCoreResultMessage[]> {
  const result = await lintSource({
    source: { content, filePath, ext: path.extname(filePath), contentType: 'text' },
    options: { config: CONFIG },
  });
  return result.messages;
}

const detectorOf = (m: SecretLintCoreResultMessage): string => `${m.ruleId}#${m.messageId}`;
/** A corpus group's detector without its `:variant`. */
const presetDetector = (d: string): string => d.replace(/:[a-z-]+$/, '');

/** The password of a URL; for `<token>:x-oauth-basic` (GitHub's fixed password), the token. */
function urlSecret(url: string): string {
  const [, user = '', password = url] = /^[a-z+:]*:\/\/([^:/\s]{1,256}):([^@/\s]{1,256})@/i.exec(url) ?? [];
  return password.toLowerCase() === 'x-oauth-basic' ? user : password;
}
/** A PEM's key material, as the pieces between line breaks (escaped or not) and blanks. */
const pemPieces = (pem: string): string[] =>
  pem
    .replace(/-----(?:BEGIN|END)[^-]*-----/g, ' ')
    .split(/\s|\\n/)
    .filter((p) => p.length >= 16);

/**
 * The secret bytes of a report. A report's data names the match: for a URL the whole URL (its password
 * is the secret), for a PEM the whole block (its base64 body is), for the AWS account rule the
 * assignment; otherwise the token itself.
 */
function secretPieces(m: SecretLintCoreResultMessage, content: string): string[] {
  const data = (m.data ?? {}) as Record<string, unknown>;
  const value = Object.values(data).find((v): v is string => typeof v === 'string' && v !== '') ?? '';
  switch (m.messageId) {
    case 'BasicAuth':
    case 'MongoDBConnection':
    case 'MySQLConnection':
    case 'PostgreSQLConnection':
      return [urlSecret(value)];
    case 'IncomingWebhook':
      return [value.slice(value.toLowerCase().indexOf('/services/') + '/services/'.length)];
    case 'PrivateKey':
      return pemPieces(value);
    case 'PrivateKeyJSON':
      return pemPieces(String((JSON.parse(content) as { private_key?: unknown }).private_key));
    case 'AWSAccountID':
      return [/\d{4}-?\d{4}-?\d{4}/.exec(value)?.[0] ?? value];
    default:
      return [value];
  }
}

interface Finding {
  detector: string;
  text: string;
  leaked: string;
}

/** Lints each example (one at a time) and returns what secretlint reported and what the redactor left. */
async function examineAll(examples: readonly SecretExample[]) {
  const out: { ex: SecretExample; messages: SecretLintCoreResultMessage[]; leaks: Finding[] }[] = [];
  for (const ex of examples) {
    const messages = await lint(ex.text, ex.filePath);
    const redacted = redactSecrets(ex.text);
    const leaks: Finding[] = [];
    for (const m of messages) {
      for (const piece of secretPieces(m, ex.text)) {
        if (redacted.includes(piece)) leaks.push({ detector: detectorOf(m), text: ex.text, leaked: piece });
      }
    }
    out.push({ ex, messages, leaks });
  }
  return out;
}

const corpus = secretlintCorpus();
let examined: ReturnType<typeof examineAll> | undefined; // linted once, shared by the tests below
const examine = async (examples: readonly SecretExample[]) => {
  const all = await (examined ??= examineAll(corpus));
  return all.filter((r) => examples.includes(r.ex));
};
const presetDetectors = preset.rules.flatMap((rule) =>
  Object.keys(rule.messages ?? {}).map((message) => `${rule.meta.id}#${message}`),
);

describe('secretlint recommended preset as the oracle', () => {
  it('every detector of the preset has generated examples or an out-of-scope reason', () => {
    const named = [...GROUPS.map((g) => g.detector), ...Object.keys(OUT_OF_SCOPE)];
    const listed = new Set(named.map(presetDetector));
    expect(presetDetectors.filter((d) => !listed.has(d))).toEqual([]);
    // Neither list names a detector the preset no longer has.
    expect(named.filter((d) => !presetDetectors.includes(presetDetector(d)))).toEqual([]);
  });

  it('secretlint reports the planted secret of every example (the corpus is what the rules find)', async () => {
    const missed: string[] = [];
    for (const { ex, messages } of await examine(corpus)) {
      const found = messages
        .filter((m) => detectorOf(m) === presetDetector(ex.detector))
        .some((m) =>
          [ex.secret, pemPieces(ex.secret).join('\n')].includes(secretPieces(m, ex.text).join('\n')),
        );
      if (!found) missed.push(`${ex.detector}: ${ex.text}`);
    }
    expect(missed).toEqual([]);
  });

  const inScope = GROUPS.map((g) => g.detector).filter((d) => OUT_OF_SCOPE[d] === undefined);
  it.each(inScope)('every secret it reports is redacted: %s', async (detector) => {
    const results = await examine(corpus.filter((ex) => ex.detector === detector));
    const leaks = results.flatMap((r) => r.leaks).filter((f) => OUT_OF_SCOPE[f.detector] === undefined);
    expect(leaks).toEqual([]);
  });

  it('each out-of-scope detector with examples still leaks (else it is covered: take it off the list)', async () => {
    const covered: string[] = [];
    for (const detector of Object.keys(OUT_OF_SCOPE).filter((d) => GROUPS.some((g) => g.detector === d))) {
      const results = await examine(corpus.filter((ex) => ex.detector === detector));
      if (!results.some((r) => r.leaks.some((f) => f.detector === presetDetector(detector))))
        covered.push(detector);
    }
    expect(covered).toEqual([]);
  });

  it('a secretlint-disable comment silences secretlint but not the redactor', async () => {
    const token = ['gh', 'p_'].join('') + corpus[0]?.secret.replace(/[^A-Za-z0-9]/g, '').slice(0, 36);
    expect(token).toHaveLength(40);
    const text = `const fallback = "${token}"; // secretlint-disable-line\n`;
    expect(await lint(`const fallback = "${token}";\n`, 'a.ts')).not.toEqual([]);
    expect(await lint(text, 'a.ts')).toEqual([]);
    expect(redactSecrets(text)).not.toContain(token);
  });
});
