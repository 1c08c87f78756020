// Preloaded by the benchmark with `node --import` on its memory runs: at exit, writes this
// process's peak resident set size (KiB, getrusage RUSAGE_SELF, so not the server's) to the
// file named by BENCH_PEAK_RSS_FILE. The variable is removed at once so that the server this
// process spawns does not inherit it.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_PEAK_RSS_FILE;
delete process.env.BENCH_PEAK_RSS_FILE;
if (file) {
  process.on('exit', () => {
    try {
      writeFileSync(file, String(process.resourceUsage().maxRSS));
    } catch {
      // Measuring must never change how the measured process ends.
    }
  });
}
