import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var y=".github/mcp-annotation-auditor.yml",p="mcp-tool-classes.json",B=["claude","openai","explicit"];var f="0.1.0";var m=`Server (one of):
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
  --config FILE              config file (default ${y} when it exists)
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

${m}`};function Z(n){let e=n.indexOf("--"),t=e<0?n:n.slice(0,e),i=t[0];if(i===void 0)return{exitCode:2,stdout:"",stderr:`${g.main}
`};if(i==="-h"||i==="--help"||i==="help")return{exitCode:0,stdout:`${g.main}
`,stderr:""};if(i==="--version"||i==="-v")return{exitCode:0,stdout:`${f}
`,stderr:""};let r=g[i];if(r!==void 0&&i!=="main"&&t.slice(1).some(s=>s==="--help"||s==="-h"))return{exitCode:0,stdout:`${r}
`,stderr:""}}var o=class extends Error{constructor(t,i,r){super(t);this.hint=i;this.details=r}hint;details;name="AuditError"};function w(n){if(n instanceof Error)return n.message;if(typeof n=="string")return n;try{return JSON.stringify(n)??String(n)}catch{return String(n)}}function z(n){if(n instanceof o){let e=[n.message];n.hint&&e.push(n.hint);let t=e.join(" ");return n.details&&(t+=`
${n.details}`),t}return`The audit failed unexpectedly: ${w(n)}. This is a bug in mcp-annotation-auditor; please report it with this message.`}import{spawn as T}from"node:child_process";import{closeSync as N,existsSync as A,openSync as C,readdirSync as S,readFileSync as $,readSync as R,statSync as O}from"node:fs";import{resolve as b}from"node:path";var G=["PATH","HOME","LOGNAME","USER","SHELL","TERM","LANG","LC_ALL","TMPDIR","TZ","SystemRoot","ComSpec","PATHEXT","TEMP","TMP","APPDATA","LOCALAPPDATA","USERPROFILE"];function ie(n,e=process.env,t=!0){let i={};if(t)for(let r of G){let s=e[r];s!==void 0&&(i[r]=s)}for(let[r,s]of Object.entries(n))s!==null?i[r]=s:e[r]!==void 0&&(i[r]=e[r]);return i}function re(n){let e={};for(let t of n){let i=t.indexOf("=");if(i===0)throw new o(`Bad environment entry "${t}": the name is empty.`,"Use KEY=VALUE or KEY.");let r=i<0?t:t.slice(0,i);if(/\s/.test(r))throw new o(`Bad environment entry "${t}": the name "${r}" holds a space.`,"Use KEY=VALUE with no spaces around =, or a bare KEY.");i<0?e[t]=null:e[r]=t.slice(i+1)}return e}var v=class{constructor(e=16384){this.limit=e}limit;text="";dropped=0;push(e){this.text+=e,this.text.length>this.limit*2&&(this.dropped+=this.text.length-this.limit,this.text=this.text.slice(-this.limit))}toString(){let e=this.text.length>this.limit?this.text.slice(-this.limit):this.text,t=this.dropped+(this.text.length-e.length);return t>0?`[${t} earlier characters not shown]
${e}`:e}},c=new Set,k=!1;function D(){if(!k){k=!0,process.on("exit",()=>{for(let n of c)n.killAll()});for(let n of["SIGINT","SIGTERM","SIGHUP"])process.once(n,()=>{for(let e of c)e.killAll();process.exit(n==="SIGINT"?130:143)})}}function se(){let n=2,e=()=>{n-=1,n===0&&process.exit()};for(let t of[process.stdout,process.stderr])t.writableLength>0?t.write("",e):e()}function M(n){let e=n.lastIndexOf(")");if(e<0)return;let t=n.slice(e+2).split(" "),[i,r,s]=t,a=t[19];if(!(!i||!r||!s||!a))return{state:i,ppid:Number(r),pgrp:Number(s),startTime:a}}var P=Buffer.alloc(4096);function l(n){let e;try{e=C(`/proc/${n}/stat`,"r")}catch{return}try{return M(P.toString("latin1",0,R(e,P)))}catch{return}finally{N(e)}}var I;function U(n){let e;try{e=S(`/proc/${n}/task`)}catch{return[]}return e.flatMap(t=>{try{return $(`/proc/${t}/task/${t}/children`,"utf8").split(" ").filter(Boolean).map(Number)}catch{return[]}})}function _(){let n=new Map,e;try{e=S("/proc")}catch{return n}for(let t of e){if(!/^\d+$/.test(t))continue;let i=l(Number(t));if(!i)continue;let r=n.get(i.ppid);r?r.push(Number(t)):n.set(i.ppid,[Number(t)])}return n}function F(){if(I??=A(`/proc/${process.pid}/task/${process.pid}/children`),I)return U;let n=_();return e=>n.get(e)??[]}var x=class{seen=new Map;collect(e){if(process.platform!=="linux")return;this.prune();let t=[...this.seen.keys()];if(e!==void 0&&t.push(e),t.length===0)return;let i=F();for(let r=t.pop();r!==void 0;r=t.pop())for(let s of i(r)){if(this.seen.has(s))continue;let a=l(s);!a||a.state==="Z"||a.ppid!==r||(this.seen.set(s,a.startTime),t.push(s))}}prune(){for(let[e,t]of this.seen){let i=l(e);(i?.startTime!==t||i.state==="Z")&&this.seen.delete(e)}}signal(e,t){for(let i of e)try{process.kill(i,t)}catch{}}kill(e){let t=new Set;for(let i=0;i<10;i+=1){this.collect(e);let r=[...this.seen.keys()].filter(s=>!t.has(s));if(r.length===0)break;this.signal(r,"SIGSTOP");for(let s of r)t.add(s)}this.signal(new Set([...t,...this.seen.keys()]),"SIGKILL")}async gone(e){let t=Date.now()+e;for(;;){if(this.prune(),this.seen.size===0||Date.now()>t)return;await new Promise(i=>setTimeout(i,10))}}},E=class{constructor(e){this.spec=e;if(D(),!e.command)throw new o("The server command is empty.","Give the program to run first, e.g. node server.js.");try{this.child=T(e.command,e.args,{cwd:e.cwd,env:e.env,stdio:["pipe","pipe","pipe"],detached:process.platform!=="win32",windowsHide:!0})}catch(t){throw L(e,t instanceof Error?t:new Error(w(t)))}c.add(this),this.child.stderr.setEncoding("utf8"),this.child.stderr.on("data",t=>this.stderr.push(t)),this.stderrEnded=new Promise(t=>{this.child.stderr.once("close",t),this.child.stderr.once("error",t)}),this.child.stdin.on("error",()=>{}),this.exited=new Promise(t=>{this.child.once("error",i=>{this.spawnError=i,this.exitInfo??={code:null,signal:null},t(this.exitInfo)}),this.child.once("exit",(i,r)=>{this.exitInfo={code:i,signal:r},t(this.exitInfo)})})}spec;child;stderr=new v;descendants=new x;exited;stderrEnded;exitInfo;spawnError;get pid(){return this.child.pid}get hasExited(){return this.exitInfo!==void 0}describeExit(){if(this.spawnError)return`could not start (${this.spawnError.message})`;if(!this.exitInfo)return;let{code:e,signal:t}=this.exitInfo;return t?`was killed by ${t}`:`exited with code ${e}`}get failure(){return this.spawnError?L(this.spec,this.spawnError):void 0}async stderrRead(e){await d(this.stderrEnded,e)}waitForExit(e){return d(this.exited,e)}killGroup(e){let t=this.child.pid;if(t!==void 0)try{process.platform==="win32"?this.child.kill(e):process.kill(-t,e)}catch{}}collectDescendants(){this.descendants.collect(this.hasExited?void 0:this.child.pid)}killAll(){this.descendants.kill(this.hasExited?void 0:this.child.pid),this.killGroup("SIGKILL")}async groupGone(e){let t=this.child.pid;if(t===void 0||process.platform==="win32")return;let i=Date.now()+e;for(;;){try{process.kill(-t,0)}catch{return}if(H(t)||Date.now()>i)return;await new Promise(r=>setTimeout(r,10))}}async stop(e=2e3){this.child.pid!==void 0&&(this.collectDescendants(),this.child.stdin.end(),!this.hasExited&&!await d(this.exited,100)&&(this.collectDescendants(),this.killGroup("SIGTERM"),await d(this.exited,e)||(this.collectDescendants(),this.killGroup("SIGKILL"),await d(this.exited,e))),this.killAll(),await Promise.all([this.groupGone(1e3),this.descendants.gone(1e3)])),this.child.stdout.destroy(),this.child.stderr.destroy(),c.delete(this)}};function L(n,e){let t=e.code;return t==="ENOENT"&&n.cwd!==void 0&&!K(n.cwd)?new o(`Could not start the server: its working directory ${n.cwd} does not exist.`,"Check the path given with --cwd (or cwd in the config file); a relative path is taken from where the audit runs."):t==="ENOENT"?new o(`Could not start the server: the command "${n.command}" was not found${n.cwd?` (working directory ${n.cwd})`:""}.`,"Check the command for typos, install it, or give its full path (it is looked up on PATH)."):t==="EACCES"?new o(`Could not start the server: "${n.command}" is not executable.`,"Make it executable (chmod +x) or run it through its interpreter, e.g. node server.js."):new o(`Could not start the server "${n.command}": ${e.message}.`,"Check the command and its arguments.")}function H(n){if(process.platform!=="linux")return!1;let e;try{e=S("/proc")}catch{return!1}for(let t of e){if(!/^\d+$/.test(t))continue;let i=l(Number(t));if(i?.pgrp===n&&i.state!=="Z")return!1}return!0}function K(n){try{return O(n).isDirectory()}catch{return!1}}async function d(n,e){let t,i=new Promise(r=>{t=setTimeout(()=>r(!1),e)});try{return await Promise.race([n.then(()=>!0),i])}finally{clearTimeout(t)}}var u=[];function j(n,e){let t=i=>Object.keys(i).sort().join("\0");return n.command===e.command&&b(n.cwd??".")===b(e.cwd??".")&&n.args.length===e.args.length&&n.args.every((i,r)=>i===e.args[r])&&t(n.env)===t(e.env)&&Object.entries(n.env).every(([i,r])=>e.env[i]===r)}function oe(n){u.push(new E(n))}function ae(n){let e=u.findIndex(t=>j(t.spec,n));return e<0?void 0:u.splice(e,1)[0]}async function de(){await Promise.all(u.splice(0).map(n=>n.stop()))}var h=new Set;function ce(n){let e=n.stop();h.add(e),e.finally(()=>h.delete(e))}async function le(){for(;h.size;)await Promise.all([...h])}export{y as a,p as b,B as c,f as d,g as e,Z as f,o as g,w as h,z as i,G as j,ie as k,re as l,v as m,se as n,E as o,oe as p,ae as q,de as r,ce as s,le as t};
