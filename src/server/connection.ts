// What a listing talks to: a server over stdio or Streamable HTTP (one file each), as one
// Connection that paginate() lists through. The types every part of server/ shares live here.
import type { Transport } from '@modelcontextprotocol/client';
import { plural } from '../core/text.js';
import type { AuditError } from '../errors.js';
import type { SpawnSpec } from './process.js';

export type ProtocolEra = 'legacy' | 'modern';
/** The modern era's revision: stateless, `server/discover` instead of `initialize`. */
export const MODERN_REVISION = '2026-07-28';

export type ServerTarget = (
  | { kind: 'stdio'; spawn: SpawnSpec }
  | {
      kind: 'http';
      url: string;
      headers: Record<string, string>;
      /** Launched first, waited on until the URL answers, stopped at the end. */
      start?: SpawnSpec;
    }
) & {
  /** The server's name in the config file, to say which server an error is about. */
  label?: string;
};

export type HttpTarget = Extract<ServerTarget, { kind: 'http' }>;
export type StdioTarget = Extract<ServerTarget, { kind: 'stdio' }>;

export interface ListLimits {
  /** Time for the server to start and answer the handshake. */
  startTimeoutMs: number;
  /** Time for all of `tools/list`, every page. */
  listTimeoutMs: number;
  maxPages: number;
  maxTools: number;
}

export const DEFAULT_LIMITS: ListLimits = {
  startTimeoutMs: 30_000,
  listTimeoutMs: 60_000,
  maxPages: 1_000,
  maxTools: 100_000,
};

export interface Listing {
  era: ProtocolEra;
  serverInfo?: { name: string; version?: string };
  /** Tools as sent, unvalidated: each is validated on its own later. */
  rawTools: unknown[];
  pages: number;
  /** Lines on stdout that were not JSON-RPC; a stdio server must not write them. */
  stdoutNoise: string[];
}

/** The longest stdout line we hold; one page of tools is far smaller. */
export const MAX_LINE = 64 * 1024 * 1024;

/**
 * The most a whole listing may send, every page together: what the audit keeps of it must fit in
 * memory and in one report.
 */
export const MAX_LISTING = 2 * MAX_LINE;

/** How far the listing got, for messages: the handshake, then pages of tools. */
export interface Progress {
  phase: 'start' | 'list';
  pages: number;
  tools: number;
}

export type Sdk = typeof import('./sdk.js');

/** A server to list, reached one way; it owns what it started and what it watches. */
export interface Connection {
  readonly era: ProtocolEra;
  readonly progress: Progress;
  /** Characters or bytes the server has sent so far: the whole listing is bounded. */
  readonly received: number;
  /** Lines on stdout that were not JSON-RPC (stdio only). */
  readonly noise: string[];
  /** Starts the server if it is ours to start, and loads the SDK meanwhile. */
  prepare(): Promise<Sdk>;
  /** The transport for the SDK's client, once the server is there to talk to. */
  transport(sdk: Sdk, limits: ListLimits): Promise<Transport>;
  /** `promise`, failed early by what the connection watches (the server's exit, a stream). */
  race<T>(promise: Promise<T>): Promise<T>;
  /** The listing as the audit keeps it, or the failure that came just before its last page. */
  finish(listing: Listing): Promise<Listing>;
  /** What was thrown, as one error a person can act on. */
  failure(error: unknown, limits: ListLimits): Promise<AuditError>;
  /** Ends what the connection started; for stdio, in the background (see stopAll). */
  close(): Promise<void>;
}

export function handshakeOf(era: ProtocolEra): string {
  return era === 'modern' ? `server/discover, ${MODERN_REVISION}` : 'initialize';
}

/** "during the handshake (initialize)", "while listing tools": where a failure happened. */
export function duringText(progress: Progress, era: ProtocolEra): string {
  return progress.phase === 'start'
    ? `during the handshake (${handshakeOf(era)})`
    : `while listing tools${era === 'modern' ? ` (${MODERN_REVISION} era)` : ''}`;
}

export function sofarText(progress: Progress): string {
  return progress.phase === 'start'
    ? 'before listing any tools'
    : `after ${plural(progress.pages, 'page')} and ${plural(progress.tools, 'tool')}`;
}
