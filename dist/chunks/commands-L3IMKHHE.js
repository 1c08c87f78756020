import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{DEFAULT_CLASS_LIST,DEFAULT_CONFIG,POLICIES,VERSION,readAtRef,readConfigFile,render,resolveSettings,runAudit,splitCommand}from"./chunk-JBJN5HCI.js";import{AuditError}from"./chunk-HCFVNLOJ.js";import"./chunk-KEMXCH3W.js";import"./chunk-XJZX5YZ4.js";import{parseArgs}from"node:util";import{readFile}from"node:fs/promises";var COMMON_HELP=`Server (one of):
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
  --config FILE              config file (default ${DEFAULT_CONFIG} when it exists)
  --format text|json|markdown   output format (default text)
  -h, --help                 this help`,HELP={main:`mcp-annotation-auditor ${VERSION}: keep an MCP server's tool annotations honest.

Usage:
  mcp-annotation-auditor list   [options] -- <command> [args...]
  mcp-annotation-auditor check  [options] -- <command> [args...]
  mcp-annotation-auditor update [options] -- <command> [args...]

Commands:
  list     list the server's tools with their hints, class (read/edit/delete) and reach
  check    check annotations against directory policies and the committed class list
  update   write the class list from the live server (commit it to accept a change)

Run mcp-annotation-auditor <command> --help for its options.
Exit codes: 0 passed, 1 findings at or above --fail-on, 2 the audit could not run.`,list:`Usage: mcp-annotation-auditor list [options] -- <command> [args...]

Lists every tool with each hint as declared true, declared false or absent (-), the class
(read, edit, delete), the open/closed reach and the title. Exits 0 unless the audit cannot run.

${COMMON_HELP}`,check:`Usage: mcp-annotation-auditor check [options] -- <command> [args...]

Checks each tool against the enabled policies and the class list, and (with a base) what
the change does to the tool surface.

Check options:
  --policy LIST              claude,openai,explicit (default claude,openai; repeatable)
  --fail-on LEVEL            error (default), warning, notice or never
  --class-list FILE          the reviewed class list (default ${DEFAULT_CLASS_LIST})
  --base FILE                the class list before the change, to compare with
  --base-ref REF             read the base class list with git show REF:<class list>
  --approved                 the change is approved: hint-dropped and class-relaxed become notices

${COMMON_HELP}`,update:`Usage: mcp-annotation-auditor update [options] -- <command> [args...]

Writes the class list from the live server: sorted, stable, each tool's "reason" kept
(also across a rename). Refuses to overwrite a file it cannot parse.

Update options:
  --class-list FILE          the class list to write (default ${DEFAULT_CLASS_LIST})

${COMMON_HELP}`};function usageError(message,command="main"){return new AuditError(message,`Run mcp-annotation-auditor ${command==="main"?"":`${command} `}--help for usage.`)}function seconds(value,flag){if(value===void 0)return;let n=Number(value);if(!Number.isFinite(n)||n<=0)throw usageError(`${flag} must be a positive number of seconds, not "${value}".`);return Math.round(n*1e3)}function count(value,flag){if(value===void 0)return;let n=Number(value);if(!Number.isInteger(n)||n<=0)throw usageError(`${flag} must be a positive whole number, not "${value}".`);return n}function quote(arg){return/^[A-Za-z0-9_./:=@%+-]+$/.test(arg)?arg:`'${arg.replace(/'/g,"'\\''")}'`}async function runCli(argv){let dashdash=argv.indexOf("--"),own=dashdash<0?argv:argv.slice(0,dashdash),serverCommand=dashdash<0?[]:argv.slice(dashdash+1),command=own[0];if(command===void 0||command==="-h"||command==="--help"||command==="help")return{exitCode:command===void 0?2:0,stdout:command===void 0?"":`${HELP.main}
`,stderr:command===void 0?`${HELP.main}
`:""};if(command==="--version"||command==="-v")return{exitCode:0,stdout:`${VERSION}
`,stderr:""};if(command!=="list"&&command!=="check"&&command!=="update")throw usageError(`Unknown command "${command}".`);let mode=command,values,positionals;try{({values,positionals}=parseArgs({args:own.slice(1),allowPositionals:!0,strict:!0,options:{help:{type:"boolean",short:"h"},format:{type:"string"},policy:{type:"string",multiple:!0},"fail-on":{type:"string"},"class-list":{type:"string"},"server-name":{type:"string"},server:{type:"string",multiple:!0},config:{type:"string"},base:{type:"string"},"base-ref":{type:"string"},approved:{type:"boolean"},env:{type:"string",multiple:!0},cwd:{type:"string"},url:{type:"string"},start:{type:"string"},header:{type:"string",multiple:!0},"protocol-era":{type:"string"},"start-timeout":{type:"string"},"list-timeout":{type:"string"},"max-pages":{type:"string"},"max-tools":{type:"string"}}}))}catch(error){throw usageError(error.message,mode)}if(values.help)return{exitCode:0,stdout:`${HELP[mode]}
`,stderr:""};if(positionals.length)throw usageError(`Unexpected argument "${positionals[0]}". Put the server's command after --, e.g. ${mode} -- node server.js.`,mode);let format=values.format??"text";if(!["text","json","markdown"].includes(format))throw usageError(`--format must be text, json or markdown, not "${format}".`,mode);let failOn=values["fail-on"];if(failOn!==void 0&&!["error","warning","notice","never"].includes(failOn))throw usageError(`--fail-on must be error, warning, notice or never, not "${failOn}".`,mode);let policies=values.policy?.flatMap(p=>p.split(",")).map(p=>p.trim()).filter(Boolean),badPolicy=policies?.find(p=>!POLICIES.includes(p));if(badPolicy!==void 0)throw usageError(`Unknown policy "${badPolicy}": use ${POLICIES.join(", ")}.`,mode);let era=values["protocol-era"];if(era!==void 0&&!["legacy","modern","both"].includes(era))throw usageError(`--protocol-era must be legacy, modern or both, not "${era}".`,mode);if(serverCommand.length&&values.url)throw usageError("Give either a command after -- or --url, not both.",mode);if(dashdash>=0&&!serverCommand.length)throw usageError("Nothing follows --: give the server command.",mode);if(values.base!==void 0&&values["base-ref"]!==void 0)throw usageError("Give --base or --base-ref, not both.",mode);let overrides={};if(serverCommand.length&&(overrides.command=serverCommand),values.url!==void 0&&(overrides.url=values.url),values.start!==void 0){if(values.url===void 0)throw usageError("--start needs --url: it launches the HTTP server before it is audited.",mode);overrides.start=splitCommand(values.start)}values.header&&(overrides.headers=values.header),values.env&&(overrides.env=values.env),values.cwd!==void 0&&(overrides.cwd=values.cwd),values["server-name"]!==void 0&&(overrides.serverName=values["server-name"]),values.server&&(overrides.only=values.server),values["class-list"]!==void 0&&(overrides.classList=values["class-list"]),policies&&(overrides.policies=policies),failOn&&(overrides.failOn=failOn),era&&(overrides.era=era);let limits={startTimeoutMs:seconds(values["start-timeout"],"--start-timeout"),listTimeoutMs:seconds(values["list-timeout"],"--list-timeout"),maxPages:count(values["max-pages"],"--max-pages"),maxTools:count(values["max-tools"],"--max-tools")};for(let[key,value]of Object.entries(limits))value!==void 0&&Object.assign(overrides,{[key]:value});let configPath=values.config??DEFAULT_CONFIG,file=await readConfigFile(configPath,values.config!==void 0),settings=resolveSettings(file,configPath,overrides),updateArgs=["npx","mcp-annotation-auditor","update"];values.config!==void 0&&updateArgs.push("--config",values.config),values["class-list"]!==void 0&&updateArgs.push("--class-list",values["class-list"]),values["server-name"]!==void 0&&updateArgs.push("--server-name",values["server-name"]);for(let name of values.server??[])updateArgs.push("--server",name);for(let entry of values.env??[])updateArgs.push("--env",entry.includes("=")?`${entry.slice(0,entry.indexOf("="))}=<value>`:entry);values.cwd!==void 0&&updateArgs.push("--cwd",values.cwd),era!==void 0&&era!=="legacy"&&updateArgs.push("--protocol-era",era),values.url!==void 0&&updateArgs.push("--url",values.url),values.start!==void 0&&updateArgs.push("--start",values.start),serverCommand.length&&updateArgs.push("--",...serverCommand);let options={mode,updateCommand:updateArgs.map(quote).join(" "),approved:values.approved??!1};if(values.base!==void 0){let text;try{text=await readFile(values.base,"utf8")}catch(error){if(error.code!=="ENOENT")throw new AuditError(`Could not read --base ${values.base}: ${error.message}.`);text=null}options.base={text,label:values.base}}else values["base-ref"]!==void 0&&(options.base={text:await readAtRef(values["base-ref"],settings.classList),label:values["base-ref"]});let report=await runAudit(settings,options);return{exitCode:report.result==="failed"?1:0,stdout:render(report,format),stderr:""}}export{runCli};
