import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOG, CLAIMED } from '../harvest/session-ends.js';
import { ledgerFile, backupsDir } from '../install/ledger.js';
import { demoHome } from '../night/demo.js';
import { stateHomeEntries } from './paths.js';

describe('stateHomeEntries', () => {
  it('names what the modules outside config keep in the state home', () => {
    const home = '/state';
    const entries = stateHomeEntries(home);
    for (const p of [
      ledgerFile(home),
      backupsDir(home),
      demoHome(home),
      path.join(home, LOG),
      path.join(home, CLAIMED),
    ])
      expect(entries).toContain(p);
    expect(entries).not.toContain(home);
  });
});
