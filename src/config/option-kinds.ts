import { redactArgs, redactUrl } from '../redact.js';
import { splitCommand } from './command-line.js';

/*
 * The kinds of value an option takes (options.ts): how a written value is read and checked, once
 * for the command line, the action's inputs and the config file alike, and what an error says a
 * value must be. No zod here: a kind says what the config file holds as plain data (ConfigType),
 * which file.ts turns into its schema, so the entries that load this before the server under
 * audit starts load no zod.
 */

/** What the config file holds for a key, as plain data (file.ts makes the zod schema). */
export type ConfigType =
  | { readonly type: 'string'; readonly nonEmpty?: true }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | { readonly type: 'number'; readonly integer: boolean }
  | { readonly type: 'list'; readonly of: ConfigType }
  | { readonly type: 'one-or-list'; readonly of: ConfigType };

/** Why a written value was refused: the text, as an error may show it. */
export interface Refusal {
  /** The text that is not a value, secrets hidden. */
  shown: string;
  /** Said after it in parentheses, when the kind knows why this value in particular is refused. */
  note?: string;
}

/** How an option's values are written and read. */
export interface Kind<T> {
  /** A switch takes no value; `one` keeps the last value given; `many` keeps every value, in order. */
  readonly arity: 'switch' | 'one' | 'many';
  /** The value the texts given stand for (one per flag given, or the input's items), or the refusal of the first that is not one. */
  readonly parse: (texts: readonly string[]) => { value: T } | { refused: Refusal };
  /** What a value must be, completing "must be": in the command line's words and the input's. */
  readonly expected: { readonly flag: string; readonly input: string };
  /** The command line's whole message for a refused value, when it is not "--flag must be …". */
  readonly flagMessage?: (flag: string, refused: Refusal) => string;
  /** What the config file holds for it (a positive number, one of a list...). */
  readonly config?: ConfigType;
  /** A written value as an error may show it (a URL's or a command line's secrets hidden). */
  readonly shown: (text: string) => string;
}

const asIs = (text: string) => text;

/** "a, b or c". */
export function orList(values: readonly string[]): string {
  return values.length < 2
    ? (values[0] ?? '')
    : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

interface OneSpec<T> {
  read: (text: string) => T | undefined;
  expected: { flag: string; input: string };
  config?: ConfigType;
  shown?: (text: string) => string;
  flagMessage?: Kind<T>['flagMessage'];
  /** Why a value that is not one is refused, when the kind can say (choice's notes). */
  note?: (text: string) => string | undefined;
}

/** One value: the last one given wins, as with any command line. */
export function one<T>(spec: OneSpec<T>): Kind<T> {
  const shown = spec.shown ?? asIs;
  return {
    arity: 'one',
    expected: spec.expected,
    shown,
    ...(spec.config ? { config: spec.config } : {}),
    ...(spec.flagMessage ? { flagMessage: spec.flagMessage } : {}),
    parse(texts) {
      const text = texts.at(-1) ?? '';
      const value = spec.read(text);
      if (value !== undefined) return { value };
      const note = spec.note?.(text);
      return { refused: { shown: shown(text), ...(note !== undefined ? { note } : {}) } };
    },
  };
}

/** Every value given, in order, each read as `item` reads one; `input` says what the input must be. */
export function many<T>(
  item: Kind<T> & { readonly values?: readonly string[] },
  input = item.expected.input,
): Kind<T[]> & { readonly values?: readonly string[] } {
  return {
    arity: 'many',
    ...(item.values ? { values: item.values } : {}),
    expected: { flag: item.expected.flag, input },
    shown: item.shown,
    ...(item.flagMessage ? { flagMessage: item.flagMessage } : {}),
    ...(item.config ? { config: { type: 'list', of: item.config } } : {}),
    parse(texts) {
      const values: T[] = [];
      for (const text of texts) {
        const read = item.parse([text]);
        if ('refused' in read) return read;
        values.push(read.value);
      }
      return { value: values };
    },
  };
}

/** A switch: given or not. */
export const flagSwitch: Kind<boolean> = {
  arity: 'switch',
  expected: { flag: 'given alone', input: 'true' },
  shown: asIs,
  parse: () => ({ value: true }),
};

/** Any text: a path, a name, a label. */
export const text: Kind<string> = one({
  read: (value) => value,
  expected: { flag: 'a value', input: 'a value' },
  config: { type: 'string' },
});

/** A kind whose values are a list, which help shows (json|text). */
export interface ChoiceKind<T extends string> extends Kind<T> {
  readonly values: readonly T[];
}

/**
 * One of `values`. `noun` makes the command line's message name the value ("Unknown policy");
 * `notes` says why a value it might be mistaken for is not one of them.
 */
export function choice<const T extends string>(
  values: readonly T[],
  options: { noun?: string; notes?: Partial<Record<string, string>> } = {},
): ChoiceKind<T> {
  const { noun, notes } = options;
  const kind = one<T>({
    read: (value) => ((values as readonly string[]).includes(value) ? (value as T) : undefined),
    expected: { flag: orList(values), input: `one of ${values.join(', ')}` },
    config: { type: 'enum', values },
    note: (value) => notes?.[value],
    ...(noun !== undefined
      ? {
          flagMessage: (_flag: string, refused: Refusal) =>
            `Unknown ${noun} "${refused.shown}": use ${values.join(', ')}.`,
        }
      : {}),
  });
  return { ...kind, values };
}

/**
 * A positive whole number, written in digits (as the inputs always took it: `4`, not `4.0` or
 * `0x4`). `input` says what the input must be, in its own words.
 */
export function count(input = 'a positive whole number'): Kind<number> {
  return one({
    read: (value) => {
      const n = Number(value);
      return /^[1-9][0-9]*$/.test(value) && Number.isSafeInteger(n) ? n : undefined;
    },
    expected: { flag: 'a positive whole number', input },
    config: { type: 'number', integer: true },
  });
}

/** A positive number of seconds (the config file writes a number; flags a number's text). */
export const seconds: Kind<number> = one({
  read: (value) => {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
  },
  expected: { flag: 'a positive number of seconds', input: 'a positive number of seconds' },
  config: { type: 'number', integer: false },
});

/** A Streamable HTTP endpoint: http:// or https://, shown without its secrets. */
export const url: Kind<string> = one({
  read: (value) => (/^https?:\/\//i.test(value) ? value : undefined),
  expected: { flag: 'an http:// or https:// URL', input: 'an http:// or https:// URL' },
  shown: redactUrl,
});

/**
 * A command line, split into words as a shell would (never run through one); its first word must
 * be a command. Shown with only its safe words (see redactArgs).
 */
export const commandLine: Kind<string[]> = one({
  read: (value) => {
    const words = splitCommand(value);
    return words.length && words[0] ? words : undefined;
  },
  expected: {
    flag: 'a command line such as "node server.js"',
    input: 'a command line such as "node server.js"',
  },
  shown: (value) => {
    try {
      return redactArgs(splitCommand(value)).shown.join(' ');
    } catch {
      return '***';
    }
  },
});
