/**
 * The protocol eras a server can be listed in, and the setting that picks one or both: a leaf, so
 * that the option table (config/options.ts), which the CLI's entry loads before the server under
 * audit starts, takes the names without the era comparison (eras.ts) and what it imports.
 */
export const PROTOCOL_ERAS = ['legacy', 'modern'] as const;
export const ERA_SETTINGS = [...PROTOCOL_ERAS, 'both'] as const;
export type ProtocolEra = (typeof PROTOCOL_ERAS)[number];
export type EraSetting = (typeof ERA_SETTINGS)[number];
