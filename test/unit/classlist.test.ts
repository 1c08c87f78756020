import {
  chmod,
  lstat,
  mkdir,
  readdir,
  readFile,
  realpath,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  classListSchemas,
  parseClassList,
  serializeClassList,
  toolLines,
  type ToolRecord,
  wellFormed,
} from '../../src/core/classlist.js';
import { jsonErrorOffset, loadJsonText } from '../../src/core/jsontext.js';
import { writeConfined, type WriteRoot } from '../../src/confined.js';
import { readClassList } from '../../src/files.js';
import { describeError } from '../../src/errors.js';
import { tempDir } from '../support/cli.js';
import { variants } from '../support/variants.js';
import { seeded } from '../support/seeded.js';

// parseClassList says where a broken file breaks with jsonc-parser, which readClassList loads.
await loadJsonText();

const record = (tool: string): ToolRecord => ({
  server: 's',
  tool,
  class: 'read',
  reach: 'closed',
  hints: {
    readOnlyHint: true,
    destructiveHint: 'absent',
    idempotentHint: 'absent',
    openWorldHint: false,
  },
  title: tool,
  titleSource: 'none',
  schema: '0',
});

describe('toolLines', () => {
  it('finds the line of every key in one pass, escaped names included', () => {
    const names = ['a', 'b"quote', 'c\\back'];
    const text = serializeClassList({
      tools: new Map(names.map((n) => [`mcp__s__${n}`, record(n)])),
    });
    const lines = toolLines(text);
    for (const n of names) {
      const line = lines.get(`mcp__s__${n}`);
      expect(text.split('\n')[(line ?? 0) - 1]).toContain(JSON.stringify(`mcp__s__${n}`));
    }
  });

  it('reads each key within its own line (CRLF too): a key and its colon on two lines is none', () => {
    const text =
      '{\r\n  "tools": {\r\n    "mcp__s__a": {},\r\n    "mcp__s__b"\r\n: {},\n  "mcp__s__c"\n  : {}\n}';
    const lines = toolLines(text);
    expect([...lines]).toEqual([['mcp__s__a', 3]]);
  });

  it('gives what matching each line from its start gives, on texts made of keys, values and breaks', () => {
    const byLine = (text: string) => {
      const out = new Map<string, number>();
      text.split('\n').forEach((l, i) => {
        const key = /^[^\S\n]*("mcp__(?:[^"\\\n]|\\.)*")[^\S\n]*:/.exec(l)?.[1];
        if (key === undefined) return;
        try {
          const name = JSON.parse(key) as string;
          if (!out.has(name)) out.set(name, i + 1);
        } catch {
          // Not a JSON string.
        }
      });
      return out;
    };
    const parts = [
      '"mcp__s__a"',
      '"mcp__s__b\\"c"',
      '"mcp__',
      ':',
      ' ',
      '\t',
      '\n',
      '\r\n',
      '"x"',
      '\\',
      '{',
      '"mcp__s__a":',
    ];
    const next = seeded(7);
    for (let n = 0; n < 2_000; n++) {
      const text = Array.from({ length: next() % 40 }, () => parts[next() % parts.length]).join('');
      expect([...toolLines(text)], JSON.stringify(text)).toEqual([...byLine(text)]);
    }
  });

  it('stays linear on a list the PR wrote on one line, behind a long indent, with a key on every few bytes', () => {
    // A search that went back to the line's start for each "mcp__ would look at the 2 MB indent
    // 20,000 times (40 billion characters, minutes); a linear one finishes at once. The test's
    // timeout is the hang guard; nothing here reads a clock.
    const indent = ' '.repeat(2_000_000);
    const keys = Array.from({ length: 20_000 }, (_, i) => `"mcp__s__t${i}": 1`).join(', ');
    expect([...toolLines(`${indent}{${keys}}`)]).toEqual([]);
    expect([...toolLines(`\n${indent}${keys}\n`)]).toEqual([['mcp__s__t0', 2]]);
  });

  it('a list of 10,000 tools round-trips', () => {
    const tools = new Map(
      Array.from({ length: 10_000 }, (_, i) => [`mcp__s__t${i}`, record(`t${i}`)] as const),
    );
    const text = serializeClassList({ tools });
    expect(parseClassList(text, 'x.json').tools.size).toBe(10_000);
    expect(toolLines(text).size).toBe(10_000);
  });
});

describe('serializeClassList: what reviewers read in the diff', () => {
  it('writes bidi and invisible characters as \\u escapes, which read back identically', () => {
    const hidden = ['bidi\u202egnp.exe', 'zero\u200bwidth', 'mark\u061c', 'iso\u2066late\u2069'];
    const tools = new Map(
      hidden.map((n) => [`mcp__s__${n}`, { ...record(n), title: `Title ${n}\u2028x` }] as const),
    );
    const text = serializeClassList({ tools });
    expect(text).not.toMatch(/[\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/);
    expect(text).toContain('"mcp__s__bidi\\u202egnp.exe": {');
    expect(text).toContain('"title": "Title mark\\u061c\\u2028x"');
    const parsed = parseClassList(text, 'x.json');
    expect([...parsed.tools]).toEqual([...tools].sort(([a], [b]) => (a < b ? -1 : 1)));
    expect(serializeClassList(parsed)).toBe(text);
    // Annotations still find each tool's line.
    for (const n of hidden) expect(toolLines(text).get(`mcp__s__${n}`)).toBeGreaterThan(0);
  });

  it('writes DEL and the C1 controls (CSI, OSC, ST, NEL) as escapes, which read back identically', () => {
    const hidden = ['csi\u009b31m', 'osc\u009d0;T\u009c', 'nel\u0085x', 'del\u007f'];
    const tools = new Map(
      hidden.map((n) => [`mcp__s__${n}`, { ...record(n), title: `T\u009b2J` }] as const),
    );
    const text = serializeClassList({ tools });
    expect(text).not.toMatch(/[\u007f-\u009f]/);
    expect(text).toContain('"mcp__s__csi\\u009b31m": {');
    expect(text).toContain('"title": "T\\u009b2J"');
    expect(serializeClassList(parseClassList(text, 'x.json'))).toBe(text);
  });

  it('writes format characters, fillers, variation selectors and tag characters as escapes too', () => {
    const hidden = ['soft\u00adhyphen', 'hangul\u3164filler', 'braille\u2800blank', 'tag\u{e0041}'];
    const tools = new Map(
      hidden.map((n) => [`mcp__s__${n}`, { ...record(n), title: `T\u034f\u180e\ufe0f` }] as const),
    );
    const text = serializeClassList({ tools });
    expect(text).not.toMatch(/[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u);
    expect(text).toContain('"mcp__s__tag\\udb40\\udc41": {');
    expect(text).toContain('"title": "T\\u034f\\u180e\\ufe0f"');
    expect([...parseClassList(text, 'x.json').tools]).toEqual(
      [...tools].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  });
});

describe('parseClassList: the fast checks agree with the schemas', () => {
  it('accepts an entry only where zod does, and outputs what zod outputs', () => {
    const base = { ...record('t'), reason: 'why' };
    const reversed = Object.fromEntries(Object.entries(base.hints).reverse());
    const { reason, ...fields } = base;
    // The hints, and reason, in another order than the schema's.
    const entries = [...variants(base), { reason, ...fields, hints: reversed }];
    let accepted = 0;
    for (const raw of entries) {
      const viaZod = classListSchemas().record.safeParse(raw);
      const fast = wellFormed.record(raw);
      expect(fast, JSON.stringify(raw)).toBe(viaZod.success);
      if (!fast) continue;
      accepted++;
      // Field and hint order included: the JSON report shows these records.
      expect(JSON.stringify(wellFormed.copyRecord(raw))).toBe(JSON.stringify(viaZod.data));
    }
    expect(entries.length).toBeGreaterThan(100);
    expect(accepted).toBeGreaterThan(5);
  });

  it('accepts a file only where zod does; zod decides the rest', () => {
    let refused = 0;
    for (const raw of variants({ $schema: 'x', version: 1, tools: {} })) {
      const viaZod = classListSchemas().file.safeParse(raw).success;
      if (wellFormed.file(raw)) expect(viaZod, JSON.stringify(raw)).toBe(true);
      else if (!viaZod) refused++;
    }
    expect(refused).toBeGreaterThan(10);
  });

  it('drops a "__proto__" key among the tools, as the schema does', () => {
    const text = `{"version":1,"tools":{"__proto__":{"note":"x"},"mcp__s__t":${JSON.stringify(record('t'))}}}`;
    const list = parseClassList(text, 'classes.json');
    expect([...list.tools.keys()]).toEqual(['mcp__s__t']);
  });
});

/** What the user reads when parsing `text` fails: message and hint. */
function parseError(text: string, path = 'classes.json'): string {
  try {
    parseClassList(text, path);
  } catch (error) {
    return describeError(error);
  }
  throw new Error('the class list parsed');
}

const listText = (...tools: string[]): string =>
  serializeClassList({ tools: new Map(tools.map((t) => [`mcp__s__${t}`, record(t)])) });

/** The 1-based line of the first line of `text` that contains `part`. */
const lineOf = (text: string, part: string): number =>
  text.split('\n').findIndex((l) => l.includes(part)) + 1;

describe('parseClassList: a syntax error names its line on every Node version', () => {
  const text = listText('a', 'b', 'c');

  it('an unquoted value', () => {
    const broken = text.replace('"class": "read"', '"class": edit');
    expect(lineOf(broken, 'edit')).toBe(7);
    expect(parseError(broken)).toMatch(
      /^The class list classes\.json is not valid JSON at line 7, column 16: unexpected "e"\./,
    );
  });

  it('NaN', () => {
    const broken = text.replace('"schema": "0"', '"schema": NaN');
    expect(parseError(broken)).toMatch(
      new RegExp(`at line ${lineOf(broken, 'NaN')}, column 17: unexpected "N"`),
    );
  });

  it('garbage after the end', () => {
    const lines = text.split('\n').length;
    expect(parseError(`${text}}\n`)).toMatch(
      new RegExp(`at line ${lines}, column 1: unexpected "}"`),
    );
  });

  it('a truncated file: just after its last word, not a blank line below it', () => {
    const cut = text.indexOf('"title": "b"') + '"title": "b"'.length;
    const line = text.slice(0, cut).split('\n').length;
    const column = cut - text.lastIndexOf('\n', cut - 1);
    expect(parseError(`${text.slice(0, cut)}\n\n`)).toMatch(
      new RegExp(`at line ${line}, column ${column}: the file ends too early`),
    );
    expect(parseError('')).toMatch(/at line 1, column 1: the file ends too early/);
  });

  it('a string broken by a newline: where the newline is', () => {
    const cut = text.indexOf('"title": "b"') + 5;
    expect(parseError(`${text.slice(0, cut)}\n}`)).toMatch(
      new RegExp(`at line ${lineOf(text, '"title": "b"')}, column 12: unexpected "\\\\n"`),
    );
  });

  it('a bad escape or a control character in a string: where it is, past valid escapes', () => {
    expect(parseError(String.raw`{"version": 1, "tools": {"a\\b\x": 1}}`)).toMatch(
      /at line 1, column 32: unexpected "x"/,
    );
    expect(parseError('{"version": 1, "tools": {"a\tb": 1}}')).toMatch(
      /at line 1, column 28: unexpected "\\t"/,
    );
    expect(parseError(String.raw`{"version": 1, "tools": {"\u12g4": 1}}`)).toMatch(
      /at line 1, column 28: unexpected "u"/,
    );
  });

  it('a byte order mark, as editors add, is accepted', async () => {
    expect(parseClassList(`\ufeff${text}`, 'x.json').tools.size).toBe(3);
    const dir = await tempDir();
    await writeFile(join(dir, 'bom.json'), `\ufeff${text}`);
    expect((await readClassList(join(dir, 'bom.json')))?.list.tools.size).toBe(3);
  });

  it('the scanner accepts exactly what JSON.parse accepts', () => {
    const samples = [
      text,
      '0',
      '-0.5e+3',
      '"\\u00e9\\n\\"',
      '[1, [true, false, null], {"a": {}}]',
      ' { "a" : [ ] } ',
      '01',
      '1.',
      '.5',
      '-',
      '+1',
      '1e',
      '"\\x"',
      '"\\u12g4"',
      '"a\tb"',
      '"open',
      '[1,]',
      '{"a":1,}',
      '{"a" 1}',
      '{a:1}',
      '[1 2]',
      'tru',
      'nulls',
      "'a'",
      '{"a":1}}',
      '[',
      '',
    ];
    for (const sample of samples) {
      let valid = true;
      try {
        JSON.parse(sample);
      } catch {
        valid = false;
      }
      expect(jsonErrorOffset(sample) === -1, sample).toBe(valid);
    }
  });
});

describe('parseClassList: a broken entry gives advice that works', () => {
  it('names the file and line, and says to fix it by hand or restore it, then update', () => {
    const broken = listText('a', 'b').replace('"class": "read"', '"class": "destroy"');
    const message = parseError(broken);
    expect(message).toMatch(/classes\.json has a broken entry "mcp__s__a" \(line 4\): class/);
    expect(message).toContain('git checkout -- classes.json');
    expect(message).not.toMatch(/run update to rewrite/);
  });

  it('the same for a key that does not match its entry', () => {
    const broken = listText('a').replace('"mcp__s__a"', '"mcp__s__z"');
    const message = parseError(broken);
    expect(message).toMatch(/classes\.json has an entry keyed "mcp__s__z" \(line 4\)/);
    expect(message).toContain('git checkout -- classes.json');
    expect(message).not.toMatch(/run update to rewrite/);
  });
});

describe('writeConfined', () => {
  const writeFileAtomic = async (path: string, text: string) => {
    const root: WriteRoot = {
      path: await realpath(dirname(path)),
      name: 'the test folder',
      links: 'inside',
    };
    await writeConfined(path, text, root, 'the file');
  };
  it('writes through a symlink to its target, and the link stays a link', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'real'));
    const target = join(dir, 'real', 'classes.json');
    await writeFile(target, 'old\n');
    const link = join(dir, 'classes.json');
    await symlink(target, link);
    await writeFileAtomic(link, 'new\n');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('new\n');
    expect(await readdir(join(dir, 'real'))).toEqual(['classes.json']);
  });

  it("keeps the file's mode", async () => {
    const dir = await tempDir();
    const path = join(dir, 'classes.json');
    await writeFile(path, 'old\n');
    await chmod(path, 0o640);
    await writeFileAtomic(path, 'new\n');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
    expect(await readFile(path, 'utf8')).toBe('new\n');
    expect(await readdir(dir)).toEqual(['classes.json']);
  });
});
