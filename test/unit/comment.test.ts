import { describe, expect, it } from 'vitest';
import { commentMarker } from '../../src/report/comment.js';

describe('commentMarker', () => {
  it('tells apart runs on one server by policies and era; the defaults keep the plain marker', () => {
    const plain = '<!-- mcp-annotation-auditor:notes -->';
    expect(commentMarker('notes')).toBe(plain);
    expect(commentMarker('notes', { policies: ['openai', 'claude'], era: 'legacy' })).toBe(plain);
    expect(commentMarker('notes', { policies: ['claude'] })).toBe(
      '<!-- mcp-annotation-auditor:notes policies=claude -->',
    );
    expect(
      commentMarker('notes', { policies: ['explicit', 'claude', 'claude'], era: 'both' }),
    ).toBe('<!-- mcp-annotation-auditor:notes policies=claude+explicit era=both -->');
    expect(commentMarker('notes', { policies: [], era: 'modern' })).toBe(
      '<!-- mcp-annotation-auditor:notes policies=none era=modern -->',
    );
    // A name cannot forge a variant, or close the comment.
    expect(commentMarker('notes policies=claude -->')).toBe(
      '<!-- mcp-annotation-auditor:notes_policies_claude_--_ -->',
    );
  });
});
