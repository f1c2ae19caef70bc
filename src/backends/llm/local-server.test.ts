import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { freeLocalRoles, isLoopbackUrl } from './local-server.js';

describe('isLoopbackUrl', () => {
  it.each([
    'http://127.0.0.1:11434/v1',
    'http://127.8.9.10:8000/v1',
    'http://localhost:8000/v1',
    'http://LOCALHOST/v1',
    'http://[::1]:11434/v1',
    'http://127.1:11434/v1',
  ])('%s is this machine', (url) => {
    expect(isLoopbackUrl(url)).toBe(true);
  });

  it.each([
    '',
    'not a url',
    'https://api.openai.com/v1',
    'http://128.0.0.1/v1',
    'http://10.0.0.5:11434/v1',
    'http://127.0.0.1.example.com/v1',
    'http://localhost.example.com/v1',
    'http://mylocalhost/v1',
    'http://[::2]/v1',
    'http://0.0.0.0:11434/v1',
  ])('%s is not', (url) => {
    expect(isLoopbackUrl(url)).toBe(false);
  });
});

describe('freeLocalRoles', () => {
  const config = (over: Record<string, unknown>) => configSchema.parse(over);

  it('an unpriced model on a loopback server is free for every role that uses it', () => {
    const local = { backend: 'openai', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.1' };
    expect(freeLocalRoles(config(local))).toEqual(['target', 'optimizer']);
  });

  it('a remote server, a priced model or the mock is not', () => {
    expect(freeLocalRoles(config({ backend: 'openai', base_url: 'http://10.0.0.5/v1', model: 'x' }))).toEqual(
      [],
    );
    expect(freeLocalRoles(config({ backend: 'openai', base_url: 'http://localhost/v1' }))).toEqual([]);
    const priced = {
      backend: 'openai',
      base_url: 'http://localhost/v1',
      model: 'mine',
      prices: { mine: { input_per_mtok: 1, output_per_mtok: 1 } },
    };
    expect(freeLocalRoles(config(priced))).toEqual([]);
    expect(freeLocalRoles(config({ base_url: 'http://localhost/v1' }))).toEqual([]);
    const split = { target_backend: 'openai', target_base_url: 'http://[::1]:8000/v1', target_model: 'qwen' };
    expect(freeLocalRoles(config(split))).toEqual(['target']);
  });
});
