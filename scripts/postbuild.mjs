// Make the CLI entry executable so `npx skillopt-sleep` and direct calls work after `npm install`.
import { chmodSync } from 'node:fs';
import { URL } from 'node:url';
chmodSync(new URL('../dist/src/cli/main.js', import.meta.url), 0o755);
