/** The part of node:v8 used here (a test gives its own). */
interface FlagsApi {
  setFlagsFromString: (flags: string) => void;
}

/**
 * Keeps V8's young generation at the size module loading left it (8 MiB on Node 20) instead of
 * letting it double up to 32 MiB. V8 grows it once more bytes have survived its collections than
 * it holds, and everything `check` keeps (the class list, the listing, the audit's results)
 * survives: at 10,000 tools it grew to its largest size, some 24 MiB of resident memory that
 * held nothing long-lived. A growth factor of 1 makes each growth a no-op; node cannot be given
 * the heap's own sizes once running (they are read when the heap is set up, and a flag on
 * `node dist/cli.js` cannot be passed). This flag is read at each growth. A V8 that does not
 * take it (newer ones may hold the factor at 2 or more) just grows as before; nothing else
 * changes either way, and a failure is ignored. node:v8 is loaded only here, after the server's
 * start: nothing else loads it.
 */
export async function holdYoungGeneration(
  load: () => Promise<FlagsApi> = () => import('node:v8'),
): Promise<void> {
  try {
    (await load()).setFlagsFromString('--semi-space-growth-factor=1');
  } catch {
    // Memory, not behaviour: without it the run is the same, with a larger peak.
  }
}
