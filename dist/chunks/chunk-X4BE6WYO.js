import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var S=".github/mcp-annotation-auditor.yml",p="mcp-tool-classes.json",J=["claude","openai","explicit"];var f="0.1.0";var m=`Server (one of):
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
  --config FILE              config file (default ${S} when it exists)
  --format text|json|markdown   output format (default text)
  -h, --help                 this help`,g={main:`mcp-annotation-auditor ${f}: keep an MCP server's tool annotations honest.

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

${m}`,check:`Usage: mcp-annotation-auditor check [options] -- <command> [args...]

Checks each tool against the enabled policies and the class list, and (with a base) what
the change does to the tool surface.

Check options:
  --policy LIST              claude,openai,explicit (default claude,openai; repeatable)
  --fail-on LEVEL            error (default), warning, notice or never
  --class-list FILE          the reviewed class list (default ${p})
  --base FILE                the class list before the change, to compare with
  --base-ref REF             read the base class list with git show REF:<class list>
  --approved                 the change is approved: hint-dropped and class-relaxed become notices

${m}`,update:`Usage: mcp-annotation-auditor update [options] -- <command> [args...]

Writes the class list from the live server: sorted, stable, each tool's "reason" kept
(also across a rename). Refuses to overwrite a file it cannot parse.

Update options:
  --class-list FILE          the class list to write (default ${p})

${m}`};function q(n){let e=n.indexOf("--"),t=e<0?n:n.slice(0,e),i=t[0];if(i===void 0)return{exitCode:2,stdout:"",stderr:`${g.main}
`};if(i==="-h"||i==="--help"||i==="help")return{exitCode:0,stdout:`${g.main}
`,stderr:""};if(i==="--version"||i==="-v")return{exitCode:0,stdout:`${f}
`,stderr:""};let s=g[i];if(s!==void 0&&i!=="main"&&t.slice(1).some(r=>r==="--help"||r==="-h"))return{exitCode:0,stdout:`${s}
`,stderr:""}}var o=class extends Error{constructor(t,i,s){super(t);this.hint=i;this.details=s}hint;details;name="AuditError"};function w(n){if(n instanceof Error)return n.message;if(typeof n=="string")return n;try{return JSON.stringify(n)??String(n)}catch{return String(n)}}function X(n){if(n instanceof o){let e=[n.message];n.hint&&e.push(n.hint);let t=e.join(" ");return n.details&&(t+=`
${n.details}`),t}return`The audit failed unexpectedly: ${w(n)}. This is a bug in mcp-annotation-auditor; please report it with this message.`}import{spawn as A}from"node:child_process";import{closeSync as C,existsSync as N,openSync as $,readdirSync as T,readFileSync as R,readSync as O,statSync as M}from"node:fs";import{resolve as y}from"node:path";var G=["PATH","HOME","LOGNAME","USER","SHELL","TERM","LANG","LC_ALL","TMPDIR","TZ","SystemRoot","ComSpec","PATHEXT","TEMP","TMP","APPDATA","LOCALAPPDATA","USERPROFILE"];function se(n,e=process.env,t=!0){let i={};if(t)for(let s of G){let r=e[s];r!==void 0&&(i[s]=r)}for(let[s,r]of Object.entries(n))r!==null?i[s]=r:e[s]!==void 0&&(i[s]=e[s]);return i}function re(n){let e={};for(let t of n){let i=t.indexOf("=");if(i===0)throw new o(`Bad environment entry "${t}": the name is empty.`,"Use KEY=VALUE or KEY.");let s=i<0?t:t.slice(0,i);if(/\s/.test(s))throw new o(`Bad environment entry "${t}": the name "${s}" holds a space.`,"Use KEY=VALUE with no spaces around =, or a bare KEY.");i<0?e[t]=null:e[s]=t.slice(i+1)}return e}var c=class{constructor(e=16384){this.limit=e}limit;text="";dropped=0;push(e){this.text+=e,this.text.length>this.limit*2&&(this.dropped+=this.text.length-this.limit,this.text=this.text.slice(-this.limit))}toString(){let e=this.text.length>this.limit?this.text.slice(-this.limit):this.text,t=this.dropped+(this.text.length-e.length);return t>0?`[${t} earlier characters not shown]
${e}`:e}},l=new Set,b=!1;function D(){if(!b){b=!0,process.on("exit",()=>{for(let n of l)n.killAll()});for(let n of["SIGINT","SIGTERM","SIGHUP"])process.once(n,()=>{for(let e of l)e.killAll();process.exit(n==="SIGINT"?130:143)})}}function oe(){let n=2,e=()=>{n-=1,n===0&&process.exit()};for(let t of[process.stdout,process.stderr])t.writableLength>0?t.write("",e):e()}function U(n){let e=n.lastIndexOf(")");if(e<0)return;let t=n.slice(e+2).split(" "),[i,s,r]=t,a=t[19];if(!(!i||!s||!r||!a))return{state:i,ppid:Number(s),pgrp:Number(r),startTime:a}}var k=Buffer.alloc(4096);function x(n){let e;try{e=$(`/proc/${n}/stat`,"r")}catch{return}try{return U(k.toString("latin1",0,O(e,k)))}catch{return}finally{C(e)}}var P;function _(n){let e;try{e=T(`/proc/${n}/task`)}catch{return[]}return e.flatMap(t=>{try{return R(`/proc/${t}/task/${t}/children`,"utf8").split(" ").filter(Boolean).map(Number)}catch{return[]}})}function L(){let n;try{n=T("/proc")}catch{return}let e=new Map;for(let t of n){if(!/^\d+$/.test(t))continue;let i=x(Number(t));i&&e.set(Number(t),i)}return e}function F(){let n=new Map;for(let[e,t]of L()??[]){let i=n.get(t.ppid);i?i.push(e):n.set(t.ppid,[e])}return n}function H(){if(P??=N(`/proc/${process.pid}/task/${process.pid}/children`),P)return _;let n=F();return e=>n.get(e)??[]}var v=class{seen=new Map;collect(e){if(process.platform!=="linux")return;this.prune();let t=[...this.seen.keys()];if(e!==void 0&&t.push(e),t.length===0)return;let i=H();for(let s=t.pop();s!==void 0;s=t.pop())for(let r of i(s)){if(this.seen.has(r))continue;let a=x(r);!a||a.state==="Z"||a.ppid!==s||(this.seen.set(r,a.startTime),t.push(r))}}prune(){for(let[e,t]of this.seen){let i=x(e);(i?.startTime!==t||i.state==="Z")&&this.seen.delete(e)}}signal(e,t){for(let i of e)try{process.kill(i,t)}catch{}}kill(e){let t=new Set;for(let i=0;i<10;i+=1){this.collect(e);let s=[...this.seen.keys()].filter(r=>!t.has(r));if(s.length===0)break;this.signal(s,"SIGSTOP");for(let r of s)t.add(r)}this.signal(new Set([...t,...this.seen.keys()]),"SIGKILL")}async gone(e){let t=Date.now()+e;for(;;){if(this.prune(),this.seen.size===0||Date.now()>t)return;await new Promise(i=>setTimeout(i,10))}}},E=class{constructor(e){this.spec=e;if(D(),!e.command)throw new o("The server command is empty.","Give the program to run first, e.g. node server.js.");try{this.child=A(e.command,e.args,{cwd:e.cwd,env:e.env,stdio:["pipe","pipe","pipe"],detached:process.platform!=="win32",windowsHide:!0})}catch(t){throw I(e,t instanceof Error?t:new Error(w(t)))}l.add(this),this.child.stderr.setEncoding("utf8"),this.child.stderr.on("data",t=>this.stderr.push(t)),this.stderrEnded=new Promise(t=>{this.child.stderr.once("close",t),this.child.stderr.once("error",t)}),this.child.stdin.on("error",()=>{}),this.exited=new Promise(t=>{this.child.once("error",i=>{this.spawnError=i,this.exitInfo??={code:null,signal:null},t(this.exitInfo)}),this.child.once("exit",(i,s)=>{this.exitInfo={code:i,signal:s},t(this.exitInfo)})})}spec;child;stderr=new c;stdoutTail;descendants=new v;exited;stderrEnded;exitInfo;spawnError;get pid(){return this.child.pid}get hasExited(){return this.exitInfo!==void 0}readStdout(){let e=this.stdoutTail=new c;this.child.stdout.setEncoding("utf8"),this.child.stdout.on("data",t=>e.push(t))}get failedExit(){return this.exitInfo!==void 0&&(this.exitInfo.code!==0||this.exitInfo.signal!==null)}describeExit(){if(this.spawnError)return`could not start (${this.spawnError.message})`;if(!this.exitInfo)return;let{code:e,signal:t}=this.exitInfo;return t?`was killed by ${t}`:`exited with code ${e}`}get failure(){return this.spawnError?I(this.spec,this.spawnError):void 0}async stderrRead(e){await d(this.stderrEnded,e)}waitForExit(e){return d(this.exited,e)}killGroup(e){let t=this.child.pid;if(t!==void 0)try{process.platform==="win32"?this.child.kill(e):process.kill(-t,e)}catch{}}collectDescendants(){this.descendants.collect(this.hasExited?void 0:this.child.pid)}killAll(){this.descendants.kill(this.hasExited?void 0:this.child.pid),this.killGroup("SIGKILL")}async groupGone(e){let t=this.child.pid;if(t===void 0||process.platform==="win32")return;let i=Date.now()+e;for(;;){try{process.kill(-t,0)}catch{return}if(K(t)||Date.now()>i)return;await new Promise(s=>setTimeout(s,10))}}async stop(e=2e3){this.child.pid!==void 0&&(this.collectDescendants(),this.child.stdin.end(),!this.hasExited&&!await d(this.exited,100)&&(this.collectDescendants(),this.killGroup("SIGTERM"),await d(this.exited,e)||(this.collectDescendants(),this.killGroup("SIGKILL"),await d(this.exited,e))),this.killAll(),await Promise.all([this.groupGone(1e3),this.descendants.gone(1e3)])),this.child.stdout.destroy(),this.child.stderr.destroy(),l.delete(this)}};function I(n,e){let t=e.code;return t==="ENOENT"&&n.cwd!==void 0&&!B(n.cwd)?new o(`Could not start the server: its working directory ${n.cwd} does not exist.`,"Check the path given with --cwd (or cwd in the config file); a relative path is taken from where the audit runs."):t==="ENOENT"?new o(`Could not start the server: the command "${n.command}" was not found${n.cwd?` (working directory ${n.cwd})`:""}.`,"Check the command for typos, install it, or give its full path (it is looked up on PATH)."):t==="EACCES"?new o(`Could not start the server: "${n.command}" is not executable.`,"Make it executable (chmod +x) or run it through its interpreter, e.g. node server.js."):new o(`Could not start the server "${n.command}": ${e.message}.`,"Check the command and its arguments.")}function K(n){if(process.platform!=="linux")return!1;let e=L();return e!==void 0&&![...e.values()].some(t=>t.pgrp===n&&t.state!=="Z")}function B(n){try{return M(n).isDirectory()}catch{return!1}}async function d(n,e){let t,i=new Promise(s=>{t=setTimeout(()=>s(!1),e)});try{return await Promise.race([n.then(()=>!0),i])}finally{clearTimeout(t)}}var u=[];function j(n,e){let t=i=>Object.keys(i).sort().join("\0");return n.command===e.command&&y(n.cwd??".")===y(e.cwd??".")&&n.args.length===e.args.length&&n.args.every((i,s)=>i===e.args[s])&&t(n.env)===t(e.env)&&Object.entries(n.env).every(([i,s])=>e.env[i]===s)}function ae(n){u.push(new E(n))}function de(n){let e=u.findIndex(t=>j(t.spec,n));return e<0?void 0:u.splice(e,1)[0]}async function ce(){await Promise.all(u.splice(0).map(n=>n.stop()))}var h=new Set;function le(n){let e=n.stop();h.add(e),e.finally(()=>h.delete(e))}async function ue(){for(;h.size;)await Promise.all([...h])}export{S as a,p as b,J as c,f as d,g as e,q as f,o as g,w as h,X as i,G as j,se as k,re as l,oe as m,E as n,ae as o,de as p,ce as q,le as r,ue as s};
