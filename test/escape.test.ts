import { describe, expect, it } from 'vitest';
import { bound, codeSpanSafe, linesSafe, markdownSafe, terminalSafe } from '../src/escape.js';

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
    const unsafe = /[\p{Cc}\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/u;
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
