import { afterAll } from 'vitest';
import { removeTempDirs } from './cli.js';

// Every test file leaves /tmp as it found it.
afterAll(removeTempDirs);
