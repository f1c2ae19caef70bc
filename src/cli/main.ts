#!/usr/bin/env node
/** The bin: runs the CLI with this process's I/O and sets the exit code. */
import { EXIT } from '../core/errors.js';
import { processIo } from './io.js';
import { runCli } from './run.js';

// A reader that stops early (`| head`) is not an error worth a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  throw err;
});

process.exitCode = await runCli(process.argv.slice(2), processIo());
