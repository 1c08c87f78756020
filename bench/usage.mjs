// Preloaded by the benchmark with `node --import` on its memory runs: at exit, writes this
// process's peak resident set size (KiB) and the CPU time it used (ms, user + system, every
// thread of the process), both from getrusage RUSAGE_SELF, so not the server's, to the file
// named by BENCH_USAGE_FILE. The variable is removed at once so that the server this
// process spawns does not inherit it.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
delete process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    try {
      const usage = process.resourceUsage();
      writeFileSync(file, `${usage.maxRSS} ${(usage.userCPUTime + usage.systemCPUTime) / 1000}`);
    } catch {
      // Measuring must never change how the measured process ends.
    }
  });
}
