// protocolEra both against a git base: each era's listing counts on its own, so a hint one era
// alone drops is drift, then hint-dropped once recorded; narrowing both to one era is
// config-relaxed. The CLI's engine in this process, the era-aware server (era-spec.mjs's twin)
// and the base commit's git in memory; test/e2e/eras-base.test.ts runs the main case (there only).
import { describe, expect, it } from 'vitest';
import { auditListings } from '../../src/core/listings.js';
import {
  json,
  notesSpec,
  tempDir,
  withAnnotations,
  writeConfig,
  type Run,
} from '../support/cli.js';
import { runCliInMemory } from '../support/in-memory.js';
import { eraConfig, serveEras } from '../support/base-fixtures.js';
import { memoryRepository, type MemoryRepository } from '../support/repo-in-memory.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** A base commit serving the notes tools alike in both eras, recorded with protocolEra both. */
async function repository(): Promise<MemoryRepository & { spec: Spec }> {
  const repo = await memoryRepository();
  const spec = await notesSpec();
  await serveEras(repo.dir, spec, spec);
  await writeConfig(repo.dir, eraConfig());
  await repo.update();
  await repo.git.commitWorkingTree();
  return { ...repo, spec };
}

function rules(run: Run, severity: string): string[] {
  return json(run)
    .findings.filter((f) => f.severity === severity)
    .map((f) => `${f.rule}:${f.tool ?? ''}`)
    .sort();
}

describe('22.5: protocolEra both, a hint dropped in the modern era only', () => {
  it('a hint dropped in the legacy era only fails the same way', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    await serveEras(dir, withAnnotations(spec, 'delete_note', { idempotentHint: undefined }), spec);
    const update = await repo.cli(['update', '--config', 'auditor.yml']);
    expect(update.code, update.stderr).toBe(0);
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run, 'error')).toEqual(['hint-dropped:delete_note']);
  });

  it('destructiveHint turned false for modern clients only is hint-dropped, not only era-mismatch', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    await serveEras(dir, spec, withAnnotations(spec, 'delete_note', { destructiveHint: false }));
    const update = await repo.cli(['update', '--config', 'auditor.yml']);
    expect(update.code, update.stderr).toBe(0);
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run, 'error')).toEqual(['hint-dropped:delete_note']);
    expect(rules(run, 'warning')).toEqual(['era-mismatch:delete_note']);
  });

  it('switching both to legacy in the PR config is config-relaxed', async () => {
    const repo = await repository();
    const { dir } = repo;
    await writeConfig(dir, eraConfig('legacy'));
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    expect(json(run).findings.map((f) => [f.rule, f.message])).toEqual([
      [
        'config-relaxed',
        'The config auditor.yml relaxes the check against auditor.yml at HEAD: server "notes": protocolEra is legacy (was both): the other era is no longer audited.',
      ],
    ]);
  });
});

describe('the union of two eras, in-process', () => {
  const hints = {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
  const tool = (annotations: Record<string, unknown>) => ({ name: 'sync', annotations });

  it('records a hint only where both eras declare it alike', () => {
    const { tools } = auditListings(
      [
        { era: 'legacy', rawTools: [tool({ ...hints, openWorldHint: undefined })] },
        { era: 'modern', rawTools: [tool({ ...hints, idempotentHint: false })] },
      ],
      [],
    );
    expect(tools).toHaveLength(1);
    const [merged] = tools;
    // openWorldHint absent in legacy, idempotentHint true vs false: neither is declared to all.
    expect(merged?.hints.openWorldHint).toEqual({ declared: false, effective: true });
    expect(merged?.hints.idempotentHint).toEqual({ declared: false, effective: false });
    expect(merged?.hints.destructiveHint).toEqual({
      declared: true,
      value: false,
      effective: false,
    });
    expect([merged?.class, merged?.reach]).toEqual(['edit', 'open']);
  });
});

describe("the era the workflow gives is audited for every server: the PR's config cannot narrow it", () => {
  /** A base audited in both eras by the command line, its config naming no era. */
  async function flaggedRepository(configName: string) {
    const repo = await memoryRepository();
    const spec = await notesSpec();
    await serveEras(repo.dir, spec, spec);
    const { servers } = eraConfig() as { servers: { notes: Record<string, unknown> } };
    const entry = { ...servers.notes };
    delete entry.protocolEra;
    const write = (more: Record<string, unknown>) =>
      writeConfig(
        repo.dir,
        configName === '.mcp.json'
          ? { mcpServers: { notes: { ...entry, ...more } } }
          : { policies: ['claude'], servers: { notes: { ...entry, ...more } } },
        configName,
      );
    await write({});
    const config = configName === '.mcp.json' ? [] : ['--config', configName];
    const update = await repo.cli(['update', ...config, '--protocol-era', 'both']);
    expect(update.code, update.stderr).toBe(0);
    await repo.git.commitWorkingTree();
    // The PR: destructiveHint gone for modern clients only, and its entry says legacy.
    await serveEras(
      repo.dir,
      spec,
      withAnnotations(spec, 'delete_note', { destructiveHint: undefined }),
    );
    await write({ protocolEra: 'legacy' });
    return repo.cli([
      'check',
      '--format',
      'json',
      ...config,
      '--policy',
      'claude',
      '--protocol-era',
      'both',
      '--base-ref',
      'HEAD',
    ]);
  }

  it.each(['auditor.yml', '.mcp.json'])(
    'protocolEra: legacy on the server in %s: both eras are still listed, and the hint is dropped',
    async (configName) => {
      const run = await flaggedRepository(configName);
      expect(run.code, run.stdout).toBe(1);
      const { servers } = JSON.parse(run.stdout) as { servers: { era: string }[] };
      expect(servers.map((s) => s.era)).toEqual(['both']);
      expect(rules(run, 'error')).toContain('hint-dropped:delete_note');
    },
  );

  it("a server's own era adds to the run's: legacy and modern make both, and both stays both", async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    await serveEras(dir, spec, spec);
    const { servers } = eraConfig() as { servers: { notes: Record<string, unknown> } };
    const eras: string[] = [];
    for (const [own, given] of [
      ['both', 'legacy'],
      ['modern', 'legacy'],
      ['legacy', 'legacy'],
      ['modern', 'modern'],
    ]) {
      await writeConfig(dir, { servers: { notes: { ...servers.notes, protocolEra: own } } });
      const run = await runCliInMemory(
        ['list', '--format', 'json', '--config', 'auditor.yml', '--protocol-era', given as string],
        { cwd: dir },
      );
      expect(run.code, run.stderr).toBe(0);
      eras.push((JSON.parse(run.stdout) as { servers: { era: string }[] }).servers[0]?.era ?? '');
    }
    expect(eras).toEqual(['both', 'both', 'legacy', 'modern']);
  });
});
