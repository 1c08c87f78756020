// The option table (src/config/options.ts) is the one place an option is added: every surface
// that lists options is made from it, so each row shows up in each, and only there.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseCommandLine } from '../../src/cli/args.js';
import { HELP } from '../../src/cli/help.js';
import { readConfigFile } from '../../src/config/file.js';
import type { ChoiceKind } from '../../src/config/option-kinds.js';
import { COMMANDS, ROWS } from '../../src/config/options.js';
import { inputValues } from '../../src/config/inputs.js';
import { describeError } from '../../src/errors.js';
import { ROOT } from '../support/cli.js';

/** What the user reads when the command line is refused. */
function refusal(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    return describeError(error);
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

/** A value each row's kind takes, as the config file holds it. */
function sample(row: (typeof ROWS)[number]): unknown {
  const values = (row.kind as Partial<ChoiceKind<string>>).values;
  const read = row.kind.parse([values?.[0] ?? '1']);
  if (!('value' in read)) throw new Error(`${row.id}: no sample`);
  return read.value;
}

describe('the option table', () => {
  it('gives every row a flag or an input, and each its words', () => {
    for (const row of ROWS) {
      expect(row.flag ?? row.input, row.id).toBeDefined();
      if (row.flag) expect(row.flag.doc.length, row.id).toBeGreaterThan(5);
      if (row.input) expect(row.input.doc.length, row.id).toBeGreaterThan(5);
      if (row.configKey !== undefined) expect(row.flag ?? row.input, row.id).toBeDefined();
    }
  });

  it('names each flag once per command, each input and each config key once', () => {
    for (const command of COMMANDS) {
      const flags = ROWS.filter((r) => r.flag?.commands.includes(command)).map((r) => r.flag?.name);
      expect(new Set(flags).size, command).toBe(flags.length);
    }
    const inputs = ROWS.flatMap((r) => (r.input ? [r.input.name] : []));
    expect(new Set(inputs).size).toBe(inputs.length);
    const keys = ROWS.flatMap((r) => (r.configKey !== undefined ? [r.configKey] : []));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('shows every flag in the help of each command that takes it, and only there', () => {
    for (const row of ROWS)
      for (const command of COMMANDS) {
        const flag = row.flag;
        // Another row's flag of the same name (rules' own --format) is not this one.
        const twin = ROWS.some(
          (r) => r !== row && r.flag?.name === flag?.name && r.flag?.commands.includes(command),
        );
        if (!flag || twin) continue;
        const shown = new RegExp(`^ {2}(-${flag.short}, )?--${flag.name}( |$)`, 'm');
        if (flag.commands.includes(command))
          expect(HELP[command], `${command} --${flag.name}`).toMatch(shown);
        else expect(HELP[command], `${command} --${flag.name}`).not.toMatch(shown);
      }
    // Help was written by hand before: --settings was once left out of it.
    expect(HELP.check).toMatch(/^ {2}--settings FILE {12}a Claude Code settings file/m);
  });

  it('lets the config file hold every config key a row names', async () => {
    const rows = ROWS.filter((r) => r.configKey !== undefined);
    expect(rows.map((r) => r.configKey)).toEqual(
      expect.arrayContaining(['classList', 'policies', 'failOn', 'protocolEra', 'concurrency']),
    );
    const data: Record<string, unknown> = Object.fromEntries(
      rows.map((r) => [r.configKey as string, sample(r)]),
    );
    const file = await readConfigFile('every-key.yml', true, () =>
      Promise.resolve(JSON.stringify(data)),
    );
    for (const row of rows)
      expect((file as Record<string, unknown>)[row.configKey as string], row.id).toEqual(
        data[row.configKey as string],
      );
  });

  it("is what action.yml's inputs say, in order, with their words and defaults", async () => {
    const action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { description: string; required: boolean; default?: string }>;
    };
    const rows = ROWS.flatMap((r) => (r.input ? [r.input] : []));
    expect(Object.keys(action.inputs)).toEqual(rows.map((input) => input.name));
    for (const input of rows)
      expect(action.inputs[input.name], input.name).toEqual({
        description: input.doc,
        required: false,
        ...(input.default !== undefined ? { default: input.default } : {}),
      });
  });

  it('reads every input with its kind, by option id', () => {
    for (const row of ROWS) {
      if (!row.input) continue;
      const values = (row.kind as Partial<ChoiceKind<string>>).values;
      const text = values?.[0] ?? (row.id === 'url' ? 'http://127.0.0.1:1/mcp' : '1');
      const read = inputValues({ [`INPUT_${row.input.name.toUpperCase()}`]: text });
      expect(read[row.id], row.input.name).toBeDefined();
    }
  });

  it('reads every flag a command takes with its kind, by option id', () => {
    for (const command of COMMANDS)
      for (const row of ROWS) {
        if (!row.flag?.commands.includes(command) || row.kind.arity === 'switch') continue;
        const value = (row.flag.per?.[command]?.kind ?? row.kind) as Partial<ChoiceKind<string>>;
        const text = value.values?.[0] ?? (row.id === 'url' ? 'http://127.0.0.1:1/mcp' : '1');
        const line = parseCommandLine([command, `--${row.flag.name}`, text]);
        expect(line.values[row.id], `${command} --${row.flag.name}`).toBeDefined();
      }
  });
});

describe('flags from the table', () => {
  it('a flag of another command is refused naming the command that takes it', () => {
    // --prune is update's: list used to say "Give it to check".
    expect(refusal(['list', '--prune'])).toBe(
      '--prune would be ignored: list writes no class list. Give it to update, or leave it out. Run mcp-annotation-auditor list --help for usage.',
    );
    expect(refusal(['check', '--prune'])).toContain(
      'check writes no class list. Give it to update',
    );
  });

  it('rules refuses an option it does not take with the one probably meant', () => {
    expect(refusal(['rules', '--writ', 'x.json'])).toBe(
      'Unknown option --writ; did you mean --write? Run mcp-annotation-auditor rules --help for usage.',
    );
    expect(refusal(['rules', '--format', 'yaml'])).toContain(
      '--format must be json or text, not "yaml".',
    );
  });

  it('checks each value once, in the words of its kind', () => {
    expect(refusal(['check', '--protocol-era', 'new'])).toContain(
      '--protocol-era must be legacy, modern or both, not "new".',
    );
    expect(refusal(['list', '--format', 'sarif'])).toContain(
      '--format must be text, json or markdown, not "sarif" (SARIF is for check, which reports findings).',
    );
    expect(refusal(['list', '--max-pages', '0'])).toContain(
      '--max-pages must be a positive whole number, not "0".',
    );
    expect(refusal(['list', '--start-timeout', 'soon'])).toContain(
      '--start-timeout must be a positive number of seconds, not "soon".',
    );
    expect(refusal(['check', '--policy', 'claude,apple'])).toContain(
      'Unknown policy "apple": use claude, openai, explicit.',
    );
    expect(parseCommandLine(['check', '--policy', 'claude, openai']).values.policies).toEqual([
      'claude',
      'openai',
    ]);
  });
});
