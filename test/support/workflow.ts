// Structural checks of a GitHub workflow file: what GitHub would otherwise refuse only when the
// workflow runs (no trigger, a job without runs-on or steps, a step that both uses and runs).
import { expect } from 'vitest';

export interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}

export interface Workflow {
  on?: unknown;
  permissions?: Record<string, string>;
  jobs: Record<string, { 'runs-on'?: unknown; steps?: Step[]; [key: string]: unknown }>;
  [key: string]: unknown;
}

/** Every step of every job, in order. */
export function stepsOf(doc: Workflow): Step[] {
  return Object.values(doc.jobs).flatMap((j) => j.steps ?? []);
}

const JOB_KEYS = new Set([
  'name',
  'needs',
  'permissions',
  'runs-on',
  'environment',
  'concurrency',
  'outputs',
  'env',
  'defaults',
  'if',
  'steps',
  'timeout-minutes',
  'strategy',
  'continue-on-error',
  'container',
  'services',
  'uses',
  'with',
  'secrets',
]);
const STEP_KEYS = new Set([
  'id',
  'if',
  'name',
  'uses',
  'run',
  'shell',
  'with',
  'env',
  'continue-on-error',
  'timeout-minutes',
  'working-directory',
]);

/** Fails the test, naming `where`, when `doc` is not a workflow GitHub would run. */
export function checkWorkflow(doc: Workflow, where: string): void {
  expect(doc.on ?? doc.true, `${where}: on`).toBeDefined();
  expect(Object.keys(doc.jobs).length, `${where}: jobs`).toBeGreaterThan(0);
  for (const [name, job] of Object.entries(doc.jobs)) {
    expect(name, where).toMatch(/^[A-Za-z_][A-Za-z0-9_-]*$/);
    for (const key of Object.keys(job)) expect(JOB_KEYS, `${where}: ${name}.${key}`).toContain(key);
    expect(job['runs-on'], `${where}: ${name} runs-on`).toBeDefined();
    const steps = job.steps ?? [];
    expect(steps.length, `${where}: ${name} steps`).toBeGreaterThan(0);
    for (const step of steps) {
      for (const key of Object.keys(step))
        expect(STEP_KEYS, `${where}: step ${key}`).toContain(key);
      // Each step either uses an action at a ref or runs a script, never both.
      expect(Boolean(step.uses) !== Boolean(step.run), `${where}: ${JSON.stringify(step)}`).toBe(
        true,
      );
      if (step.uses) expect(step.uses, where).toMatch(/^(\.\/|[\w.-]+\/[\w./-]+@[\w.-]+$)/);
      // An expression inside a script is a shell injection: scripts read env variables instead.
      if (step.run) expect(step.run, `${where}: ${step.name ?? step.run}`).not.toContain('${{');
    }
  }
}
