import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a as o}from"./chunk-N4ZMCNJQ.js";import{a,b as t}from"./chunk-Z7SNM3PP.js";var i=`Server (one of):
  -- <command> [args...]     start a stdio server (everything after -- is its command line)
  --url URL                  a Streamable HTTP endpoint; --header 'Name: value' (repeatable);
                             --start 'command line' launches it first and stops it at the end
  (neither)                  the servers listed in the config file
Server options:
  --env KEY=VALUE | KEY      add to the server's minimal environment (repeatable); a bare KEY
                             passes this process's value through. Nothing else is inherited
                             but PATH, HOME and the like: never GITHUB_TOKEN or other secrets.
  --cwd DIR                  working directory for the server
  --server-name NAME         name in mcp__<name>__<tool> (default: the server's own name)
  --server NAME              audit only this server of the config file (repeatable)
  --protocol-era ERA         legacy (default), modern (2026-07-28), or both
  --start-timeout SECONDS    time to start and finish the handshake (default 30)
  --list-timeout SECONDS     time for every page of tools/list (default 60)
  --max-pages N, --max-tools N   bounds on the listing (default 1000 pages, 100000 tools)
  --concurrency N            servers of the config file audited at once (default: the
                             number of CPU cores, at least 2)
  --config FILE              config file (default ${a} when it exists)
  --format text|json|markdown   output format (default text)
  -h, --help                 this help`,n={main:`mcp-annotation-auditor ${o}: keep an MCP server's tool annotations honest.

Usage:
  mcp-annotation-auditor list   [options] -- <command> [args...]
  mcp-annotation-auditor check  [options] -- <command> [args...]
  mcp-annotation-auditor update [options] -- <command> [args...]
  mcp-annotation-auditor rules  [--class-list FILE] [--format json|text] [--write FILE]

Commands:
  list     list the server's tools with their hints, class (read/edit/delete) and reach
  check    check annotations against directory policies and the committed class list
  update   write the class list from the live server (commit it to accept a change)
  rules    print (or --write) the Claude Code permissions the class list maps to

Run mcp-annotation-auditor <command> --help for its options.
Exit codes: 0 passed, 1 findings at or above --fail-on, 2 the audit could not run.`,list:`Usage: mcp-annotation-auditor list [options] -- <command> [args...]

Lists every tool with each hint as declared true, declared false or absent (-), the class
(read, edit, delete), the open/closed reach and the title. Exits 0 unless the audit cannot run.

${i}`,check:`Usage: mcp-annotation-auditor check [options] -- <command> [args...]

Checks each tool against the enabled policies and the class list, and (with a base) what
the change does to the tool surface.

Check options:
  --policy LIST              claude,openai,explicit (default claude,openai; repeatable)
  --fail-on LEVEL            error (default), warning, notice or never
  --class-list FILE          the reviewed class list (default ${t})
  --base FILE                the class list before the change, to compare with
  --base-ref REF             read the base class list with git show REF:<class list> (at the
                             path REF's config file names), and compare REF's config file
  --approved                 the change is approved: hint-dropped and class-relaxed become notices

${i}`,update:`Usage: mcp-annotation-auditor update [options] -- <command> [args...]

Writes the class list from the live server: sorted, stable, each tool's "reason" kept
(also across a rename). Refuses to overwrite a file it cannot parse.

Update options:
  --class-list FILE          the class list to write (default ${t})
  --prune                    also remove the entries of servers this run does not audit
                             (without it they are kept; every removed entry is listed)

${i}`,rules:`Usage: mcp-annotation-auditor rules [options]

Prints the Claude Code settings {"permissions": {"allow", "ask", "deny"}} that the reviewed
class list maps to, one rule per tool by full name (mcp__<server>__<tool>), sorted. Default
mapping: read -> allow, edit -> ask, delete -> deny; clientRules in the config file changes it
per class, per reach and per tool. The live server is never asked: rules come from the list.

Rules options:
  --class-list FILE          the reviewed class list (default ${t})
  --config FILE              config file (default ${a} when it exists)
  --format json|text         json (default): the settings object; text: a table
  --write FILE               merge into a settings file (e.g. .claude/settings.json): only the
                             mcp__ rules of the class list's servers are replaced; every other
                             key, rule and byte stays. Written atomically; a file that does not
                             parse is never overwritten. A second run changes nothing.
  -h, --help                 this help`};function m(s){let r=s.indexOf("--"),l=r<0?s:s.slice(0,r),e=l[0];if(e===void 0)return{exitCode:2,stdout:"",stderr:`${n.main}
`};if(e==="-h"||e==="--help"||e==="help")return{exitCode:0,stdout:`${n.main}
`,stderr:""};if(e==="--version"||e==="-v")return{exitCode:0,stdout:`${o}
`,stderr:""};let d=n[e];if(d!==void 0&&e!=="main"&&l.slice(1).some(c=>c==="--help"||c==="-h"))return{exitCode:0,stdout:`${d}
`,stderr:""}}export{n as a,m as b};
