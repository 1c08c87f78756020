import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var w=".github/mcp-annotation-auditor.yml",h="mcp-tool-classes.json",N=["claude","openai","explicit"];var u="0.1.0";var p=`Server (one of):
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
  --config FILE              config file (default ${w} when it exists)
  --format text|json|markdown   output format (default text)
  -h, --help                 this help`,f={main:`mcp-annotation-auditor ${u}: keep an MCP server's tool annotations honest.

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

${p}`,check:`Usage: mcp-annotation-auditor check [options] -- <command> [args...]

Checks each tool against the enabled policies and the class list, and (with a base) what
the change does to the tool surface.

Check options:
  --policy LIST              claude,openai,explicit (default claude,openai; repeatable)
  --fail-on LEVEL            error (default), warning, notice or never
  --class-list FILE          the reviewed class list (default ${h})
  --base FILE                the class list before the change, to compare with
  --base-ref REF             read the base class list with git show REF:<class list>
  --approved                 the change is approved: hint-dropped and class-relaxed become notices

${p}`,update:`Usage: mcp-annotation-auditor update [options] -- <command> [args...]

Writes the class list from the live server: sorted, stable, each tool's "reason" kept
(also across a rename). Refuses to overwrite a file it cannot parse.

Update options:
  --class-list FILE          the class list to write (default ${h})

${p}`};function U(t){let e=t.indexOf("--"),i=e<0?t:t.slice(0,e),n=i[0];if(n===void 0)return{exitCode:2,stdout:"",stderr:`${f.main}
`};if(n==="-h"||n==="--help"||n==="help")return{exitCode:0,stdout:`${f.main}
`,stderr:""};if(n==="--version"||n==="-v")return{exitCode:0,stdout:`${u}
`,stderr:""};let r=f[n];if(r!==void 0&&n!=="main"&&i.slice(1).some(s=>s==="--help"||s==="-h"))return{exitCode:0,stdout:`${r}
`,stderr:""}}var o=class extends Error{constructor(i,n,r){super(i);this.hint=n;this.details=r}hint;details;name="AuditError"};function E(t){if(t instanceof Error)return t.message;if(typeof t=="string")return t;try{return JSON.stringify(t)??String(t)}catch{return String(t)}}function F(t){if(t instanceof o){let e=[t.message];t.hint&&e.push(t.hint);let i=e.join(" ");return t.details&&(i+=`
${t.details}`),i}return`The audit failed unexpectedly: ${E(t)}. This is a bug in mcp-annotation-auditor; please report it with this message.`}import{spawn as S}from"node:child_process";import{readdirSync as y,readFileSync as b,statSync as I}from"node:fs";import{resolve as x}from"node:path";var P=["PATH","HOME","LOGNAME","USER","SHELL","TERM","LANG","LC_ALL","TMPDIR","TZ","SystemRoot","ComSpec","PATHEXT","TEMP","TMP","APPDATA","LOCALAPPDATA","USERPROFILE"];function J(t,e=process.env,i=!0){let n={};if(i)for(let r of P){let s=e[r];s!==void 0&&(n[r]=s)}for(let[r,s]of Object.entries(t))s!==null?n[r]=s:e[r]!==void 0&&(n[r]=e[r]);return n}function V(t){let e={};for(let i of t){let n=i.indexOf("=");if(n===0)throw new o(`Bad environment entry "${i}": the name is empty.`,"Use KEY=VALUE or KEY.");n<0?e[i]=null:e[i.slice(0,n)]=i.slice(n+1)}return e}var m=class{constructor(e=16384){this.limit=e}limit;text="";dropped=0;push(e){this.text+=e,this.text.length>this.limit*2&&(this.dropped+=this.text.length-this.limit,this.text=this.text.slice(-this.limit))}toString(){let e=this.text.length>this.limit?this.text.slice(-this.limit):this.text,i=this.dropped+(this.text.length-e.length);return i>0?`[${i} earlier characters not shown]
${e}`:e}},d=new Set,v=!1;function k(){if(!v){v=!0,process.on("exit",()=>{for(let t of d)t.killGroup("SIGKILL")});for(let t of["SIGINT","SIGTERM","SIGHUP"])process.once(t,()=>{for(let e of d)e.killGroup("SIGKILL");process.exit(t==="SIGINT"?130:143)})}}var g=class{constructor(e){this.spec=e;k(),this.child=S(e.command,e.args,{cwd:e.cwd,env:e.env,stdio:["pipe","pipe","pipe"],detached:process.platform!=="win32",windowsHide:!0}),d.add(this),this.child.stderr.setEncoding("utf8"),this.child.stderr.on("data",i=>this.stderr.push(i)),this.stderrEnded=new Promise(i=>{this.child.stderr.once("close",i),this.child.stderr.once("error",i)}),this.child.stdin.on("error",()=>{}),this.exited=new Promise(i=>{this.child.once("error",n=>{this.spawnError=n,this.exitInfo??={code:null,signal:null},i(this.exitInfo)}),this.child.once("exit",(n,r)=>{this.exitInfo={code:n,signal:r},i(this.exitInfo)})})}spec;child;stderr=new m;exited;stderrEnded;exitInfo;spawnError;get pid(){return this.child.pid}get hasExited(){return this.exitInfo!==void 0}describeExit(){if(this.spawnError)return`could not start (${this.spawnError.message})`;if(!this.exitInfo)return;let{code:e,signal:i}=this.exitInfo;return i?`was killed by ${i}`:`exited with code ${e}`}get failure(){return this.spawnError?L(this.spec,this.spawnError):void 0}async stderrRead(e){await a(this.stderrEnded,e)}waitForExit(e){return a(this.exited,e)}killGroup(e){let i=this.child.pid;if(i!==void 0)try{process.platform==="win32"?this.child.kill(e):process.kill(-i,e)}catch{}}async groupGone(e){let i=this.child.pid;if(i===void 0||process.platform==="win32")return;let n=Date.now()+e;for(;;){try{process.kill(-i,0)}catch{return}if(T(i)||Date.now()>n)return;await new Promise(r=>setTimeout(r,10))}}async stop(e=2e3){this.child.pid!==void 0&&(this.child.stdin.end(),!this.hasExited&&!await a(this.exited,100)&&(this.killGroup("SIGTERM"),await a(this.exited,e)||(this.killGroup("SIGKILL"),await a(this.exited,e))),this.killGroup("SIGKILL"),await this.groupGone(1e3)),this.child.stdout.destroy(),this.child.stderr.destroy(),d.delete(this)}};function L(t,e){let i=e.code;return i==="ENOENT"&&t.cwd!==void 0&&!C(t.cwd)?new o(`Could not start the server: its working directory ${t.cwd} does not exist.`,"Check the path given with --cwd (or cwd in the config file); a relative path is taken from where the audit runs."):i==="ENOENT"?new o(`Could not start the server: the command "${t.command}" was not found${t.cwd?` (working directory ${t.cwd})`:""}.`,"Check the command for typos, install it, or give its full path (it is looked up on PATH)."):i==="EACCES"?new o(`Could not start the server: "${t.command}" is not executable.`,"Make it executable (chmod +x) or run it through its interpreter, e.g. node server.js."):new o(`Could not start the server "${t.command}": ${e.message}.`)}function T(t){if(process.platform!=="linux")return!1;let e;try{e=y("/proc")}catch{return!1}for(let i of e){if(!/^\d+$/.test(i))continue;let n;try{n=b(`/proc/${i}/stat`,"utf8")}catch{continue}let[r,,s]=n.slice(n.lastIndexOf(")")+2).split(" ");if(Number(s)===t&&r!=="Z")return!1}return!0}function C(t){try{return I(t).isDirectory()}catch{return!1}}async function a(t,e){let i,n=new Promise(r=>{i=setTimeout(()=>r(!1),e)});try{return await Promise.race([t.then(()=>!0),n])}finally{clearTimeout(i)}}var c=[];function A(t,e){let i=n=>Object.keys(n).sort().join("\0");return t.command===e.command&&x(t.cwd??".")===x(e.cwd??".")&&t.args.length===e.args.length&&t.args.every((n,r)=>n===e.args[r])&&i(t.env)===i(e.env)&&Object.entries(t.env).every(([n,r])=>e.env[n]===r)}function B(t){c.push(new g(t))}function Y(t){let e=c.findIndex(i=>A(i.spec,t));return e<0?void 0:c.splice(e,1)[0]}async function W(){await Promise.all(c.splice(0).map(t=>t.stop()))}var l=new Set;function Z(t){let e=t.stop();l.add(e),e.finally(()=>l.delete(e))}async function q(){for(;l.size;)await Promise.all([...l])}export{w as a,h as b,N as c,u as d,f as e,U as f,o as g,E as h,F as i,P as j,J as k,V as l,g as m,B as n,Y as o,W as p,Z as q,q as r};
