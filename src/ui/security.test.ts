import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  cookieValue,
  newSecret,
  requestProblem,
  sameSecret,
  securityHeaders,
} from './security.js';

describe('ui security', () => {
  it('accepts only our loopback Host and Origin, with our port', () => {
    expect(requestProblem({ host: '127.0.0.1:8080', origin: undefined }, 8080)).toBeNull();
    expect(requestProblem({ host: 'LOCALHOST:8080', origin: 'http://localhost:8080' }, 8080)).toBeNull();
    expect(requestProblem({ host: undefined, origin: undefined }, 8080)?.status).toBe(403);
    expect(requestProblem({ host: 'evil.test:8080', origin: undefined }, 8080)?.reason).toMatch(/Host/);
    expect(requestProblem({ host: '127.0.0.1:8081', origin: undefined }, 8080)).not.toBeNull();
    expect(requestProblem({ host: '127.0.0.1:8080', origin: 'null' }, 8080)?.reason).toMatch(/Origin/);
    expect(requestProblem({ host: '127.0.0.1:8080', origin: 'https://127.0.0.1:8080' }, 8080)).not.toBeNull();
  });

  it('compares secrets whole, reads cookies and bearer tokens', () => {
    const s = newSecret();
    expect(s).toMatch(/^[0-9a-f]{64}$/);
    expect(newSecret()).not.toBe(s);
    expect(sameSecret(s, s)).toBe(true);
    expect(sameSecret(s.slice(1), s)).toBe(false);
    expect(sameSecret(undefined, s)).toBe(false);
    expect(cookieValue('a=1; skillopt_ui_9=abc; b=2', 'skillopt_ui_9')).toBe('abc');
    expect(cookieValue('xskillopt_ui_9=abc', 'skillopt_ui_9')).toBeUndefined();
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
  });

  it('sends a CSP of our own origin with the nonce, and no caching or referrer', () => {
    const h = securityHeaders('n1');
    expect(h['Content-Security-Policy']).toContain("default-src 'self'");
    expect(h['Content-Security-Policy']).toContain("script-src 'self' 'nonce-n1'");
    expect(h['X-Content-Type-Options']).toBe('nosniff');
    expect(h['Referrer-Policy']).toBe('same-origin');
    expect(h['Cache-Control']).toBe('no-store');
  });
});
