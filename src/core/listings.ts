import { classifyTool, type ClassifiedTool } from './classify.js';
import { fullToolName, toRecord, type ToolRecord } from './classlist.js';
import { riskOf, unionOfEras, type ProtocolEra } from './eras.js';
import type { Finding } from './findings.js';
import { checkPolicies } from './policies.js';
import { runChecks } from './rules.js';
import { isMalformed, parseTool, type MalformedTool } from './tools.js';
import type { Policy } from './policy-names.js';

/*
 * From a server's listings (one per protocol era) to its tools and findings: each raw tool
 * validated and classified, the policies checked, and the eras compared.
 */

/** What a listing gives the audit: the era it was listed in, and the tools as the server sent them. */
/** What a listing gives the audit: the era it was listed in, and the tools as the server sent them. */
export interface RawListing {
  era: ProtocolEra;
  rawTools: unknown[];
}

function parseListing(listing: Pick<RawListing, 'rawTools'>): {
  tools: ClassifiedTool[];
  malformed: MalformedTool[];
} {
  const tools: ClassifiedTool[] = [];
  const malformed: MalformedTool[] = [];
  listing.rawTools.forEach((raw, index) => {
    const parsed = parseTool(raw, index);
    if (isMalformed(parsed)) malformed.push(parsed);
    else tools.push(classifyTool(parsed));
  });
  return { tools, malformed };
}

/**
 * A server's tools and their findings, from its listing in one era or in both. In both, every
 * tool of either era is checked (a finding the eras share is reported once; one that only an era
 * has says so), and the tools recorded are the union by name, a tool both list merged hint by hint (see unionOfEras). A tool malformed
 * in either era is malformed: its class-list entry stays as reviewed.
 */
export function auditListings(
  listings: RawListing[],
  policies: readonly Policy[],
): { tools: ClassifiedTool[]; malformedNames: string[]; findings: Finding[] } {
  const parsed = listings.map((listing) => ({ era: listing.era, ...parseListing(listing) }));
  const [first, second] = parsed as [(typeof parsed)[number], (typeof parsed)[number]?];
  const malformedNames = [...new Set(parsed.flatMap((p) => p.malformed.map((m) => m.label)))];
  if (!second)
    return {
      tools: first.tools,
      malformedNames,
      findings: checkPolicies(first.tools, first.malformed, policies),
    };
  const key = (f: Finding) => JSON.stringify([f.rule, f.tool, f.message]);
  const [ofFirst, ofSecond] = [first, second].map((p) =>
    checkPolicies(p.tools, p.malformed, policies),
  ) as [Finding[], Finding[]];
  const [keysFirst, keysSecond] = [new Set(ofFirst.map(key)), new Set(ofSecond.map(key))];
  const onlyIn = (era: ProtocolEra, f: Finding): Finding => ({
    ...f,
    message: `${era === 'legacy' ? 'Legacy' : 'Modern'} era only: ${f.message}`,
  });
  const findings = [
    ...ofFirst.map((f) => (keysSecond.has(key(f)) ? f : onlyIn(first.era, f))),
    ...ofSecond.filter((f) => !keysFirst.has(key(f))).map((f) => onlyIn(second.era, f)),
  ];
  const malformed = new Set(malformedNames);
  const [legacy, modern] = first.era === 'legacy' ? [first, second] : [second, first];
  findings.push(...runChecks('eras', { legacy: legacy.tools, modern: modern.tools, malformed }));
  return {
    tools: unionOfEras(legacy.tools, modern.tools).filter((t) => !malformed.has(t.name)),
    malformedNames,
    findings,
  };
}

/**
 * The class-list entries for what a server listed. Two tools with one name (a duplicate-tool
 * error) share one entry: the riskier of them, or the first listed, so that the entry a reviewer
 * reads never understates what a client may call under that name.
 */
export function liveRecords(server: string, tools: ClassifiedTool[]): Map<string, ToolRecord> {
  const records = new Map<string, ToolRecord>();
  for (const tool of tools) {
    const key = fullToolName(server, tool.name);
    const held = records.get(key);
    if (!held || riskOf(tool) > riskOf(held)) records.set(key, toRecord(server, tool));
  }
  return records;
}
