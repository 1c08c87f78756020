#!/usr/bin/env node
// Extracts the few GitHub REST operations the action calls from GitHub's published OpenAPI
// description into test/fixtures/github/openapi-subset.json, so the fake GitHub API used by the
// end-to-end tests can refuse exactly what the real API's schemas refuse without the tests
// carrying (or downloading) the 13 MB description.
//
// Usage:
//   node scripts/extract-openapi.mjs                 # pack the pinned package, extract, clean up
//   node scripts/extract-openapi.mjs --from FILE     # use an already unpacked api.github.com.json
//   node scripts/extract-openapi.mjs --check         # exit 1 if the committed fixture is stale
//
// Only Node built-ins, `npm pack` and `tar` are used, so it runs on any machine with the toolchain.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Bumping this is the one deliberate step to follow a newer description; the fixture records it.
const PACKAGE_NAME = '@octokit/openapi';
const PACKAGE_VERSION = '23.0.2';
const DESCRIPTION_PATH = 'package/generated/api.github.com.json';

const OPERATIONS = [
  ['/repos/{owner}/{repo}/issues/{issue_number}/comments', 'get'],
  ['/repos/{owner}/{repo}/issues/{issue_number}/comments', 'post'],
  ['/repos/{owner}/{repo}/issues/comments/{comment_id}', 'patch'],
  ['/repos/{owner}/{repo}/contents/{path}', 'get'],
  ['/repos/{owner}/{repo}/pulls/{pull_number}', 'get'],
];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outFile = join(root, 'test/fixtures/github/openapi-subset.json');

function parseArgs(argv) {
  const args = { from: undefined, check: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--from') args.from = argv[++i];
    else if (arg === '--check') args.check = true;
    else throw new Error(`unknown argument: ${arg}`);
  }
  return args;
}

function loadPackedDescription() {
  const dir = mkdtempSync(join(tmpdir(), 'octokit-openapi-'));
  try {
    const packed = execFileSync(
      'npm',
      ['pack', `${PACKAGE_NAME}@${PACKAGE_VERSION}`, '--pack-destination', dir, '--json'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [info] = JSON.parse(packed);
    if (!info || info.version !== PACKAGE_VERSION) {
      throw new Error(`npm pack returned ${info?.version ?? 'nothing'}, wanted ${PACKAGE_VERSION}`);
    }
    // The tarball unpacks to ~400 MB across several GitHub flavours; only one file is needed.
    execFileSync('tar', ['-xzf', join(dir, info.filename), '-C', dir, DESCRIPTION_PATH], {
      stdio: 'inherit',
    });
    return JSON.parse(readFileSync(join(dir, DESCRIPTION_PATH), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Examples and the long markdown descriptions of operations are dropped: the fake never reads
// them, and they would make up most of the fixture. Schema and parameter descriptions stay,
// because they carry rules the schemas cannot express (e.g. "per_page ... (max 100)").
// `mapOfNames` marks objects whose keys are user-chosen names (schema properties), where a
// property literally called "description" or "example" must survive.
function strip(value, { mapOfNames = false, isOperation = false } = {}) {
  if (Array.isArray(value)) return value.map((item) => strip(item));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, child] of Object.entries(value)) {
    if (!mapOfNames) {
      if (key === 'example' || key === 'examples') continue;
      if (isOperation && key === 'description') continue;
    }
    out[key] = strip(child, { mapOfNames: !mapOfNames && key === 'properties' });
  }
  return out;
}

function resolvePointer(doc, ref) {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  let node = doc;
  for (const raw of ref.slice(2).split('/')) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !(part in node)) {
      throw new Error(`dangling $ref: ${ref}`);
    }
    node = node[part];
  }
  return node;
}

function collectRefs(value, found) {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.add(child);
      else collectRefs(child, found);
    }
  }
}

export function extract(source) {
  const paths = {};
  // Iterate the source so paths and methods keep the description's own order.
  for (const [path, item] of Object.entries(source.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!OPERATIONS.some(([p, m]) => p === path && m === method)) continue;
      paths[path] ??= {};
      paths[path][method] = strip(operation, { isOperation: true });
    }
  }
  for (const [path, method] of OPERATIONS) {
    if (!paths[path]?.[method]) throw new Error(`operation missing from source: ${method} ${path}`);
  }

  // Components are copied rather than inlined, so recursive schemas stay finite and the fixture
  // reads like the source; the closure is computed after stripping so dropped examples do not
  // drag their components along.
  const needed = new Set();
  const queue = [];
  const visit = (node) => {
    const found = new Set();
    collectRefs(node, found);
    for (const ref of found) {
      if (!needed.has(ref)) {
        needed.add(ref);
        queue.push(ref);
      }
    }
  };
  visit(paths);
  while (queue.length > 0) visit(strip(resolvePointer(source, queue.shift())));

  const components = {};
  for (const [section, entries] of Object.entries(source.components)) {
    for (const [name, entry] of Object.entries(entries)) {
      if (!needed.has(`#/components/${section}/${name}`)) continue;
      components[section] ??= {};
      components[section][name] = strip(entry);
    }
  }

  return {
    openapi: source.openapi,
    info: {
      title: 'GitHub REST API subset used by mcp-annotation-auditor',
      version: source.info.version,
      description:
        `Generated by scripts/extract-openapi.mjs from ${PACKAGE_NAME}@${PACKAGE_VERSION} ` +
        `(${DESCRIPTION_PATH.replace('package/', '')}); do not edit by hand.`,
      'x-source-package': `${PACKAGE_NAME}@${PACKAGE_VERSION}`,
      'x-source-title': source.info.title,
      'x-github-plan': source.info['x-github-plan'],
    },
    servers: source.servers,
    paths,
    components,
  };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const source = args.from ? JSON.parse(readFileSync(args.from, 'utf8')) : loadPackedDescription();
  if (source.info?.version !== PACKAGE_VERSION) {
    throw new Error(`description is version ${source.info?.version}, wanted ${PACKAGE_VERSION}`);
  }
  const text = `${JSON.stringify(extract(source), null, 2)}\n`;
  if (args.check) {
    const current = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
    if (current !== text) {
      console.error(`${outFile} is stale; run node scripts/extract-openapi.mjs`);
      process.exit(1);
    }
    console.log(`${outFile} is up to date`);
    return;
  }
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, text);
  console.log(`wrote ${outFile} (${Buffer.byteLength(text)} bytes)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
