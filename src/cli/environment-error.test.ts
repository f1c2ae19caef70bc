import { describe, expect, it } from 'vitest';
import { environmentError } from './environment-error.js';

const systemError = (code: string, p?: string) =>
  Object.assign(new Error(`${code}: boom`), { code, ...(p !== undefined ? { path: p } : {}) });

describe('environmentError', () => {
  it('makes permission, disk and store failures one-line errors (exit 1)', () => {
    expect(environmentError(systemError('EACCES', '/p/x'))).toMatchObject({
      message: 'permission denied: /p/x (EACCES)',
      code: 'permission_denied',
      exitCode: 1,
    });
    expect(environmentError(systemError('ENOSPC'))?.message).toBe('no space left on the device (ENOSPC)');
    const readonly = Object.assign(new Error('attempt to write a readonly database'), {
      code: 'SQLITE_READONLY_DBMOVED',
    });
    expect(environmentError(readonly)).toMatchObject({ code: 'store_failed', exitCode: 1 });
    expect(environmentError(readonly)?.message).toMatch(/^the store cannot be written/);
  });

  it('leaves everything else to the internal-error report', () => {
    expect(environmentError(new TypeError('x is undefined'))).toBeNull();
    expect(environmentError(systemError('ENOENT'))).toBeNull();
    expect(environmentError(Object.assign(new Error('bad'), { code: 'SQLITE_ERROR' }))).toBeNull();
  });
});
