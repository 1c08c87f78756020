import { describe, expect, it } from 'vitest';
import { encodedForms, mergeSecrets, REDACTED, secretsOfValue } from '../../src/redact.js';
import type { Listing } from '../../src/server/connection.js';
import { redactListing } from '../../src/server/secrets.js';

const SECRET = 'sk-live/Zq8+LmN4"pRt7ä';
const SECRETS = mergeSecrets(secretsOfValue(SECRET), secretsOfValue('/opt/bin/node-x9Qk2'));

/** A tool as the synthetic benchmark server lists it, with `echo` in every place a string sits. */
function tool(i: number, echo = ''): Record<string, unknown> {
  return {
    name: `get_record_${i}${echo}`,
    description: `get a record (tool ${i} of 100000).${echo}`,
    inputSchema: {
      type: 'object',
      properties: { [`id${echo}`]: { type: 'string', enum: ['a', `b${echo}`] } },
      required: ['id'],
    },
    annotations: { title: `get record ${i}${echo}`, readOnlyHint: true },
  };
}

function listing(rawTools: unknown[]): Listing {
  return {
    era: 'modern',
    rawTools,
    pages: 1,
    stdoutNoise: [],
    serverInfo: { name: 'many' },
  };
}

describe('redactListing at scale', () => {
  // Tool by tool: what holds for 2,000 tools holds for 100,000 (the benchmark's count), at a
  // fiftieth of the work.
  it('2,000 tools with no secret in them are kept as they came: nothing is copied', () => {
    const tools = Array.from({ length: 2_000 }, (_, i) => tool(i));
    const out = redactListing(listing([...tools]), SECRETS);
    // A copy per tool (and per nested object) is what made memory grow with the listing.
    const copied = out.rawTools.filter((t, i) => t !== tools[i]).length;
    expect(copied).toBe(0);
    expect(out.rawTools[1_999]).toEqual(tool(1_999));
  });

  it('every encoded form of a secret is still replaced, in every string of a tool, keys too', () => {
    const forms = [...new Set(encodedForms(SECRET))];
    const tools = forms.map((form, i) => tool(i, ` [${form}]`));
    const noise = forms.map((form) => `echo ${form}`);
    const out = redactListing(
      {
        ...listing([tool(-1), ...tools]),
        stdoutNoise: noise,
        serverInfo: { name: `x${forms[0]}` },
      },
      SECRETS,
    );
    const text = JSON.stringify(out);
    for (const form of forms) expect(text).not.toContain(form);
    expect(out.rawTools[1]).toMatchObject({
      name: `get_record_0 [${REDACTED}]`,
      inputSchema: { properties: { [`id [${REDACTED}]`]: { enum: ['a', `b [${REDACTED}]`] } } },
    });
    expect(out.stdoutNoise.every((line) => line === `echo ${REDACTED}`)).toBe(true);
  });

  it('an object whose middle key holds a secret keeps every key in its place, and the others as they were', () => {
    const kept = { deep: [1] };
    const raw = { a: kept, [`k ${SECRET}`]: 2, z: { y: SECRET }, last: 'plain' };
    const [out] = redactListing(listing([raw]), SECRETS).rawTools as Record<string, unknown>[];
    expect(Object.keys(out ?? {})).toEqual(['a', `k ${REDACTED}`, 'z', 'last']);
    expect(out?.a).toBe(kept);
    expect(out?.z).toEqual({ y: REDACTED });
    expect(out?.last).toBe('plain');
  });
});
