import { describe, expect, it } from 'vitest';
import { holdYoungGeneration } from '../../src/heap.js';

describe("holding V8's young generation", () => {
  it('sets the growth factor that makes each growth of the young generation a no-op', async () => {
    const flags: string[] = [];
    await holdYoungGeneration(() => Promise.resolve({ setFlagsFromString: (f) => flags.push(f) }));
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
  });

  it('leaves the run as it is when V8 refuses the flag or node:v8 does not load', async () => {
    const refuse = () => {
      throw new Error('no such flag');
    };
    await expect(
      holdYoungGeneration(() => Promise.resolve({ setFlagsFromString: refuse })),
    ).resolves.toBeUndefined();
    await expect(
      holdYoungGeneration(() => Promise.reject(new Error('no node:v8'))),
    ).resolves.toBeUndefined();
  });
});
