import { afterAll } from 'vitest';
import { removeTempDirs } from './cli.js';
import { killReported } from './pids.js';

// Every test file leaves /tmp as it found it, and no process a fixture reported (pids.ts) running.
afterAll(removeTempDirs);
afterAll(killReported);
