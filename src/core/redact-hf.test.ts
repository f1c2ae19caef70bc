import { describe, expect, it } from 'vitest';
import { HF_TOKEN_BODY } from './redact-patterns.js';
import { redactSecrets } from './redact.js';
import { seededRandom } from './rng.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = ['h', 'f_'].join(''); // split so secret scanners do not flag the fixtures

function randomBody(random: () => number, alphabet: string, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
}

describe('Hugging Face tokens', () => {
  it('the reported letters-only token is redacted', () => {
    const token = `${PREFIX}FAKEENzfxHodpKORMgfzYxjWtPPYqzJrvl`;
    expect(redactSecrets(`export HF=${token}`)).not.toContain(token);
    expect(redactSecrets(`the token ${token} leaked`)).toBe('the token [REDACTED:huggingface-token] leaked');
  });

  it('every one of 5,000 random letters-only tokens is redacted, in prose and in code', () => {
    const random = seededRandom(15);
    const leaked: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const token = PREFIX + randomBody(random, LETTERS, HF_TOKEN_BODY);
      const text = i % 2 === 0 ? `use ${token} for the hub` : `login(${JSON.stringify(token)})`;
      if (redactSecrets(text).includes(token)) leaked.push(token);
    }
    expect(leaked).toEqual([]);
  });

  it('random tokens with digits are redacted too', () => {
    const random = seededRandom(16);
    for (let i = 0; i < 1000; i++) {
      const token = PREFIX + randomBody(random, `${LETTERS}0123456789`, HF_TOKEN_BODY);
      expect(redactSecrets(`x ${token} y`)).toBe('x [REDACTED:huggingface-token] y');
    }
  });

  it('short words and identifiers starting with the prefix are left alone', () => {
    const words = [
      'token',
      'hub',
      'HOME',
      'transfer',
      'hub_download',
      'api',
      'xet',
      'datasets_cache',
      'ModelCardTemplate',
    ];
    for (const w of words) {
      const text = `set ${PREFIX}${w} = 1; call ${PREFIX}${w}()`;
      expect(redactSecrets(text)).toBe(text);
    }
    // Below the token's length a run must look generated to be redacted.
    const camel = `${PREFIX}loadPretrainedModelFromTheHub`;
    expect(camel.length - PREFIX.length).toBeLessThan(HF_TOKEN_BODY);
    expect(redactSecrets(`call ${camel}()`)).toBe(`call ${camel}()`);
  });
});
