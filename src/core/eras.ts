/** The protocol eras a server can be listed in, and the setting that picks one or both. */
export const PROTOCOL_ERAS = ['legacy', 'modern'] as const;
export const ERA_SETTINGS = [...PROTOCOL_ERAS, 'both'] as const;
export type ProtocolEra = (typeof PROTOCOL_ERAS)[number];
export type EraSetting = (typeof ERA_SETTINGS)[number];
