/** The README's configuration table names every key the schema accepts, and no other. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../src/config/schema.js';

describe('README configuration table', () => {
  it('has one row per config key', () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Scheduling'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` +\|/gm)].map((m) => m[1]);
    expect([...rows].sort()).toEqual([...CONFIG_KEYS].sort());
  });
});
