import { prestartForAction, stopUnclaimed } from './prestart.js';
import { exitOnceWritten } from './server/process.js';

/** The action's entry: the early start (see prestart.ts), then run(). */
async function main(): Promise<void> {
  prestartForAction(process.env);
  try {
    const { run } = await import('./action/main.js');
    await run(process.env);
  } finally {
    await stopUnclaimed();
  }
}

// An unexpected rejection is left for Node to report; it sets the exit code itself.
void main().then(exitOnceWritten);
