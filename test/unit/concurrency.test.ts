// Servers of a config file audited at once give what one after another gives: the same text and
// JSON of list and check, the same update output and class list, servers in configuration order.
// In memory; test/e2e/concurrency.test.ts proves the overlap itself (by the order of what real
// servers record) and that the reports of the two runs match.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notesSpec, specServer, tempDir, withAnnotations, writeConfig } from '../support/cli.js';
import { runCliInMemory } from '../support/in-memory.js';

describe('servers of a config file audited at once', () => {
  it('give the same text, report, update output and class list as one at a time', async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    const servers: Record<string, unknown> = {};
    // Three servers that differ, so that an output in another order would read otherwise.
    const specs = {
      a: spec,
      b: withAnnotations(spec, 'delete_note', { idempotentHint: undefined }),
      c: { ...spec, tools: spec.tools.filter((t) => t.name === 'list_notes') },
    };
    for (const [name, served] of Object.entries(specs)) {
      const [command, ...args] = await specServer(dir, `${name}.json`, served);
      servers[name] = { command, args };
    }
    const config = await writeConfig(dir, { servers });
    const cli = (...args: string[]) => runCliInMemory(args, { cwd: dir });
    const outputs: Record<string, string[]> = {};
    for (const concurrency of ['1', '3']) {
      const flags = ['--config', config, '--concurrency', concurrency];
      await rm(join(dir, 'mcp-tool-classes.json'), { force: true });
      const runs = [
        await cli('list', ...flags),
        await cli('list', '--format', 'json', ...flags),
        await cli('update', ...flags),
      ];
      const classList = await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8');
      runs.push(await cli('check', ...flags), await cli('check', '--format', 'json', ...flags));
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      outputs[concurrency] = [...runs.map((r) => r.stdout), classList];
    }
    expect(outputs['3']).toEqual(outputs['1']);
    const report = JSON.parse(outputs['3']?.[4] ?? '{}') as { servers: { server: string }[] };
    expect(report.servers.map((s) => s.server)).toEqual(['a', 'b', 'c']);
  });
});
