import type { RecordedHint } from './classlist.js';

/*
 * The words every output shares, so that text, markdown, comments and findings say a count or
 * a hint the same way.
 */

/** "1 warning", "2 warnings". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A recorded hint as a word: its value, or `absent` (each output picks its own word for that). */
export function hintText(value: RecordedHint, absent = 'absent'): string {
  return value === 'absent' ? absent : String(value);
}

/** A clause as a sentence of its own: "the note" -> "The note.". */
export function sentence(clause: string): string {
  return `${clause[0]?.toUpperCase() ?? ''}${clause.slice(1)}.`;
}

/** "a", "a and b", "a, b and c". */
export function list(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
