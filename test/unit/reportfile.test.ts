import { describe, expect, it } from 'vitest';
import { parseReport } from '../../src/report/reportfile.js';

describe('parseReport', () => {
  it('refuses a report of list or update, which holds no verdict on the PR', () => {
    for (const mode of ['list', 'update'])
      expect(() =>
        parseReport(JSON.stringify({ schemaVersion: 1, mode, result: 'listed' }), 'r.json'),
      ).toThrow(`The report r.json was written by ${mode}, not check`);
  });
});
