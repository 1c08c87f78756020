import { describe, expect, it } from 'vitest';
import {
  bound,
  codeSpanSafe,
  linesSafe,
  markdownSafe,
  noWorkflowCommands,
  terminalSafe,
} from '../../src/escape.js';

describe('markdownSafe', () => {
  it('keeps table cells intact and code spans closed', () => {
    expect(markdownSafe('a | b `c`')).toBe('a \\| b \\`c\\`');
  });
  it('makes HTML inert, including a forged marker', () => {
    expect(markdownSafe('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(markdownSafe('<!-- mcp-annotation-auditor:notes -->')).not.toContain('<!--');
  });
  it('neither mentions nor links', () => {
    expect(markdownSafe('@some-org/team fixes #1 and octo/repo#2')).toBe(
      '@\u2060some-org/team fixes #\u20601 and octo/repo#\u20602',
    );
    expect(markdownSafe('[x](javascript:alert(1))')).toBe('\\[x\\](javascript:alert(1))');
    expect(markdownSafe('see https://evil.example and www.evil.example')).toBe(
      'see https:\u2060//evil.example and www\u2060.evil.example',
    );
  });
  it('links no issue or commit by number', () => {
    expect(markdownSafe('closes GH-12 and gh-3, not GH-x')).toBe(
      'closes GH-\u206012 and gh-\u20603, not GH-x',
    );
    expect(markdownSafe('reverts 1a2b3c4d5e and DEADBEEF, not abc123 or cafe_babe_1')).toBe(
      'reverts 1a2b3c\u20604d5e and DEADBE\u2060EF, not abc123 or cafe\\_babe\\_1',
    );
    // The escaping comes first: a backslash it writes ends a word, so the hex run before it links.
    expect(markdownSafe('abcdef1_x and deadbeef*')).toBe('abcdef\u20601\\_x and deadbe\u2060ef\\*');
    expect(markdownSafe('a_b @x www.y')).toBe('a\\_b @\u2060x www\u2060.y');
    expect(markdownSafe('octo/repo@0123456789abcdef0123456789abcdef01234567')).toBe(
      'octo/repo@\u2060012345\u20606789abcdef0123456789abcdef01234567',
    );
  });
  it('puts everything on one line and shows invisible controls as \\u escapes', () => {
    expect(markdownSafe('a\nb\r\nc\u202ed')).toBe('a b c\\\\u202ed');
  });
  it('shows every bidi and zero-width control, so look-alike names stay apart', () => {
    // "\\\\u202e" in the markdown source renders as the text \u202e.
    expect(markdownSafe('bidi\u202egnp.exe')).toBe('bidi\\\\u202egnp.exe');
    expect(markdownSafe('bidi\u202egnp.exe')).not.toBe(markdownSafe('bidignp.exe'));
    const controls = [0x061c, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0xfeff];
    for (let code = 0x202a; code <= 0x202e; code++) controls.push(code);
    for (let code = 0x2066; code <= 0x2069; code++) controls.push(code);
    for (const code of controls) {
      const hex = code.toString(16).padStart(4, '0');
      expect(markdownSafe(`a${String.fromCharCode(code)}b`), `U+${hex}`).toBe(`a\\\\u${hex}b`);
    }
  });
  it('escapes dollar signs, which GitHub reads as math', () => {
    expect(markdownSafe('costs $x^2$ and $$y$$')).toBe('costs \\$x^2\\$ and \\$\\$y\\$\\$');
  });
  it('bounds long text', () => {
    const out = markdownSafe('A'.repeat(20_000), 100);
    expect(out).toHaveLength(100);
    expect(out.endsWith('…')).toBe(true);
  });
});

describe('terminalSafe', () => {
  it('shows escape sequences instead of running them', () => {
    expect(terminalSafe('red\u001b[31m!')).toBe('red\\u001b[31m!');
  });
  it('counts characters, not UTF-16 units, when bounding', () => {
    expect(bound('😀😀😀', 2)).toBe('😀…');
  });
  it('escapes exactly the control characters (\\p{Cc}) and the invisible or bidi marks', () => {
    // Word joiners, invisible operators and the BOM too: the markdown output shows them.
    const unsafe = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2028\u2029\u2800]/u;
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      const expected = unsafe.test(c) ? `\\u${code.toString(16).padStart(4, '0')}` : c;
      if (terminalSafe(c) !== expected)
        expect(terminalSafe(c), `U+${code.toString(16)}`).toBe(expected);
    }
    expect(terminalSafe('a\u202eb\u0085c😀')).toBe('a\\u202eb\\u0085c😀');
    expect(terminalSafe('a\u061cb')).toBe('a\\u061cb');
    expect(terminalSafe('a\u2060b\ufeff')).toBe('a\\u2060b\\ufeff');
  });
});

/** Invisible characters that are not bidi or zero-width marks, with how each is shown. */
const FILLERS: [string, string][] = [
  ['\u00ad', '\\u00ad'], // soft hyphen
  ['\u034f', '\\u034f'], // combining grapheme joiner
  ['\u115f', '\\u115f'], // Hangul choseong filler
  ['\u1160', '\\u1160'], // Hangul jungseong filler
  ['\u3164', '\\u3164'], // Hangul filler
  ['\uffa0', '\\uffa0'], // halfwidth Hangul filler
  ['\u180e', '\\u180e'], // Mongolian vowel separator
  ['\u2800', '\\u2800'], // braille pattern blank
  ['\ufe0f', '\\ufe0f'], // variation selector 16
  ['\u{e0100}', '\\udb40\\udd00'], // variation selector 17
  ['\u{e0041}', '\\udb40\\udc41'], // tag latin capital letter A
  ['\u{e0001}', '\\udb40\\udc01'], // language tag
];

describe('every invisible character is shown, in the terminal, markdown and code spans', () => {
  it('format characters, default-ignorable code points and fillers, in the BMP and beyond', () => {
    for (const [c, shown] of FILLERS) {
      const hex = c.codePointAt(0)?.toString(16);
      expect(terminalSafe(`a${c}b`), `U+${hex}`).toBe(`a${shown}b`);
      expect(codeSpanSafe(`a${c}b`), `U+${hex}`).toBe(`a${shown}b`);
      // markdownSafe escapes the backslash too, so the text reads \uXXXX when rendered.
      expect(markdownSafe(`a${c}b`), `U+${hex}`).toBe(`a${shown.replace(/\\/g, '\\\\')}b`);
    }
  });
  it('a name hidden in tag characters is visible: delete\u{e0020}x is not delete', () => {
    const hidden = `delete_note${[...'ignore'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}`;
    expect(terminalSafe(hidden, 200)).toBe(
      'delete_note\\udb40\\udc69\\udb40\\udc67\\udb40\\udc6e\\udb40\\udc6f\\udb40\\udc72\\udb40\\udc65',
    );
  });
});

describe('noWorkflowCommands', () => {
  it('no line starts with ::, spaces before it or not; other colons stay', () => {
    expect(noWorkflowCommands('::error::x\n  ::warning::y\na::b\n:one')).toBe(
      '\\u003a:error::x\n  \\u003a:warning::y\na::b\n:one',
    );
  });
  it('leaves a text without :: as it is', () => {
    expect(noWorkflowCommands(':one\n  :two\n{"a": ":"}\n')).toBe(':one\n  :two\n{"a": ":"}\n');
  });
  it('after any white space the runner trims (U+0085, U+00A0) and after a lone \\r', () => {
    expect(noWorkflowCommands('\u0085::a::x\n\u00a0\t::b::y\nok\r::c::z')).toBe(
      '\u0085\\u003a:a::x\n\u00a0\t\\u003a:b::y\nok\r\\u003a:c::z',
    );
  });
  it('the older ##[name] form, which the runner finds anywhere in a line', () => {
    expect(noWorkflowCommands('a ##[add-mask]x ###[error]y\n##[stop-commands]t')).toBe(
      'a #\\u0023[add-mask]x ##\\u0023[error]y\n#\\u0023[stop-commands]t',
    );
  });
  it('JSON stays the same JSON: its strings read back as they were', () => {
    const value = { name: '##[error]x', title: 'a\n::warning::b' };
    const text = JSON.stringify(value, null, 2);
    expect(noWorkflowCommands(text)).not.toContain('##[');
    expect(JSON.parse(noWorkflowCommands(text))).toEqual(value);
  });
});

describe('linesSafe', () => {
  it('keeps line breaks and makes each line safe', () => {
    expect(linesSafe('one\r\ntwo \u001b[2J\nthree\u2028', 100)).toBe(
      'one\ntwo \\u001b[2J\nthree\\u2028',
    );
  });
  it('bounds the whole text', () => {
    expect(linesSafe('a\n'.repeat(100), 11)).toBe('a\na\na\na\na\n…');
  });
});

describe('codeSpanSafe', () => {
  it('keeps names readable inside backticks and cannot close the span', () => {
    expect(codeSpanSafe('my_server')).toBe('my_server');
    expect(codeSpanSafe('a`b\nc')).toBe('a b c');
  });
  it('shows invisible and bidi controls as markdownSafe does (no backslash escapes in a span)', () => {
    expect(codeSpanSafe('bidi\u202egnp\u061c.exe')).toBe('bidi\\u202egnp\\u061c.exe');
  });
});
