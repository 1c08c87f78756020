import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var w=".github/mcp-annotation-auditor.yml",l="mcp-tool-classes.json",ee=".mcp.json",te=["claude","openai","explicit"];var u="0.1.0",ie=`npx mcp-annotation-auditor@${u}`;var v=`Server (one of):
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
  -h, --help                 this help`,x={main:`mcp-annotation-auditor ${u}: keep an MCP server's tool annotations honest.

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

${v}`,check:`Usage: mcp-annotation-auditor check [options] -- <command> [args...]

Checks each tool against the enabled policies and the class list, and (with a base) what
the change does to the tool surface.

Check options:
  --policy LIST              claude,openai,explicit (default claude,openai; repeatable)
  --fail-on LEVEL            error (default), warning, notice or never
  --class-list FILE          the reviewed class list (default ${l})
  --base FILE                the class list before the change, to compare with
  --base-ref REF             read the base class list with git show REF:<class list> (at the
                             path REF's config file names), and compare REF's config file
  --approved                 the change is approved: hint-dropped and class-relaxed become notices

${v}`,update:`Usage: mcp-annotation-auditor update [options] -- <command> [args...]

Writes the class list from the live server: sorted, stable, each tool's "reason" kept
(also across a rename). Refuses to overwrite a file it cannot parse.

Update options:
  --class-list FILE          the class list to write (default ${l})
  --prune                    also remove the entries of servers this run does not audit
                             (without it they are kept; every removed entry is listed)

${v}`,rules:`Usage: mcp-annotation-auditor rules [options]

Prints the Claude Code settings {"permissions": {"allow", "ask", "deny"}} that the reviewed
class list maps to, one rule per tool by full name (mcp__<server>__<tool>), sorted. Default
mapping: read -> allow, edit -> ask, delete -> deny; clientRules in the config file changes it
per class, per reach and per tool. The live server is never asked: rules come from the list.

Rules options:
  --class-list FILE          the reviewed class list (default ${l})
  --config FILE              config file (default ${w} when it exists)
  --format json|text         json (default): the settings object; text: a table
  --write FILE               merge into a settings file (e.g. .claude/settings.json): only the
                             mcp__ rules of the class list's servers are replaced; every other
                             key, rule and byte stays. Written atomically; a file that does not
                             parse is never overwritten. A second run changes nothing.
  -h, --help                 this help`};function ae(n){let t=n.indexOf("--"),e=t<0?n:n.slice(0,t),i=e[0];if(i===void 0)return{exitCode:2,stdout:"",stderr:`${x.main}
`};if(i==="-h"||i==="--help"||i==="help")return{exitCode:0,stdout:`${x.main}
`,stderr:""};if(i==="--version"||i==="-v")return{exitCode:0,stdout:`${u}
`,stderr:""};let s=x[i];if(s!==void 0&&i!=="main"&&e.slice(1).some(r=>r==="--help"||r==="-h"))return{exitCode:0,stdout:`${s}
`,stderr:""}}var o=class extends Error{constructor(e,i,s){super(e);this.hint=i;this.details=s}hint;details;name="AuditError"};function E(n){if(n instanceof Error)return n.message;if(typeof n=="string")return n;try{return JSON.stringify(n)??String(n)}catch{return String(n)}}function ce(n){if(n instanceof o){let t=[n.message];n.hint&&t.push(n.hint);let e=t.join(" ");return n.details&&(e+=`
${n.details}`),e}return`The audit failed unexpectedly: ${E(n)}. This is a bug in mcp-annotation-auditor; please report it with this message.`}function p(n,t){if(n.length<=t)return n;let e=Array.from(n);return e.length<=t?n:`${e.slice(0,Math.max(0,t-1)).join("")}\u2026`}function O(n,t=80){let e=p(n,t);return $.test(e)?e.replace(M,S):e}function ue(n,t=80){return p(n,t).split(/\r?\n/).map(e=>O(e,1/0)).join(`
`)}var k="\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029\\u2800",P=new RegExp(`[${k}]`,"gu"),$=new RegExp(`[\\p{Cc}${k}]`,"u"),M=new RegExp($.source,"gu");function S(n){let t="";for(let e=0;e<n.length;e++)t+=`\\u${n.charCodeAt(e).toString(16).padStart(4,"0")}`;return t}var F={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"},d="\u2060";function pe(n,t=100){return p(n,t).replace(/[\p{Cc}\u2028\u2029]+/gu," ").replace(P,S).replace(/[\\`*_~[\]|!$]/g,e=>`\\${e}`).replace(/[&<>"]/g,e=>F[e]??e).replace(/[@#]/g,e=>`${e}${d}`).replace(/\bGH-(?=\d)/gi,e=>`${e}${d}`).replace(/\b[0-9a-f]{7,40}\b/gi,e=>`${e.slice(0,6)}${d}${e.slice(6)}`).replace(/:\/\//g,`:${d}//`).replace(/www\./gi,e=>`${e.slice(0,3)}${d}.`)}function he(n,t=100){return p(n,t).replace(/[\p{Cc}\u2028\u2029`]+/gu," ").replace(P,S)}function fe(n){return n.replace(/^([^\S\r\n]*):(?=:)/gm,"$1\\u003a")}import{spawn as D}from"node:child_process";import{closeSync as U,existsSync as G,openSync as j,readdirSync as R,readFileSync as H,readSync as B,statSync as K}from"node:fs";import{resolve as L}from"node:path";var J=["PATH","HOME","LOGNAME","USER","SHELL","TERM","LANG","LC_ALL","TMPDIR","TZ","SystemRoot","ComSpec","PATHEXT","TEMP","TMP","APPDATA","LOCALAPPDATA","USERPROFILE"];function Ee(n,t=process.env,e=!0){let i={};if(e)for(let s of J){let r=t[s];r!==void 0&&(i[s]=r)}for(let[s,r]of Object.entries(n))r!==null?i[s]=r:t[s]!==void 0&&(i[s]=t[s]);return i}function Se(n){let t={};for(let e of n){let i=e.indexOf("=");if(i===0)throw new o(`Bad environment entry "${e}": the name is empty.`,"Use KEY=VALUE or KEY.");let s=i<0?e:e.slice(0,i);if(/\s/.test(s))throw new o(`Bad environment entry "${e}": the name "${s}" holds a space.`,"Use KEY=VALUE with no spaces around =, or a bare KEY.");i<0?t[e]=null:t[s]=e.slice(i+1)}return t}var h=class{constructor(t=16384){this.limit=t}limit;text="";dropped=0;push(t){this.text+=t,this.text.length>this.limit*2&&(this.dropped+=this.text.length-this.limit,this.text=this.text.slice(-this.limit))}toString(){let t=this.text.length>this.limit?this.text.slice(-this.limit):this.text,e=this.dropped+(this.text.length-t.length);return e>0?`[${e} earlier characters not shown]
${t}`:t}},f=new Set,C=!1;function V(){if(!C){C=!0,process.on("exit",()=>{for(let n of f)n.killAll()});for(let n of["SIGINT","SIGTERM","SIGHUP"])process.once(n,()=>{for(let t of f)t.killAll();process.exit(n==="SIGINT"?130:143)})}}function ye(){let n=2,t=()=>{n-=1,n===0&&process.exit()};for(let e of[process.stdout,process.stderr])e.writableLength>0?e.write("",t):t()}function W(n){let t=n.lastIndexOf(")");if(t<0)return;let e=n.slice(t+2).split(" "),[i,s,r]=e,a=e[19];if(!(!i||!s||!r||!a))return{state:i,ppid:Number(s),pgrp:Number(r),startTime:a}}var T=Buffer.alloc(4096);function y(n){let t;try{t=j(`/proc/${n}/stat`,"r")}catch{return}try{return W(T.toString("latin1",0,B(t,T)))}catch{return}finally{U(t)}}var N;function Y(n){let t;try{t=R(`/proc/${n}/task`)}catch{return[]}return t.flatMap(e=>{try{return H(`/proc/${e}/task/${e}/children`,"utf8").split(" ").filter(Boolean).map(Number)}catch{return[]}})}function _(){let n;try{n=R("/proc")}catch{return}let t=new Map;for(let e of n){if(!/^\d+$/.test(e))continue;let i=y(Number(e));i&&t.set(Number(e),i)}return t}function Z(){let n=new Map;for(let[t,e]of _()??[]){let i=n.get(e.ppid);i?i.push(t):n.set(e.ppid,[t])}return n}function q(){if(N??=G(`/proc/${process.pid}/task/${process.pid}/children`),N)return Y;let n=Z();return t=>n.get(t)??[]}var b=class{seen=new Map;collect(t){if(process.platform!=="linux")return;this.prune();let e=[...this.seen.keys()];if(t!==void 0&&e.push(t),e.length===0)return;let i=q();for(let s=e.pop();s!==void 0;s=e.pop())for(let r of i(s)){if(this.seen.has(r))continue;let a=y(r);!a||a.state==="Z"||a.ppid!==s||(this.seen.set(r,a.startTime),e.push(r))}}prune(){for(let[t,e]of this.seen){let i=y(t);(i?.startTime!==e||i.state==="Z")&&this.seen.delete(t)}}signal(t,e){for(let i of t)try{process.kill(i,e)}catch{}}kill(t){let e=new Set;for(let i=0;i<10;i+=1){this.collect(t);let s=[...this.seen.keys()].filter(r=>!e.has(r));if(s.length===0)break;this.signal(s,"SIGSTOP");for(let r of s)e.add(r)}this.signal(new Set([...e,...this.seen.keys()]),"SIGKILL")}async gone(t){let e=Date.now()+t;for(;;){if(this.prune(),this.seen.size===0||Date.now()>e)return;await new Promise(i=>setTimeout(i,10))}}},I=class{constructor(t){this.spec=t;if(V(),!t.command)throw new o("The server command is empty.","Give the program to run first, e.g. node server.js.");try{this.child=D(t.command,t.args,{cwd:t.cwd,env:t.env,stdio:["pipe","pipe","pipe"],detached:process.platform!=="win32",windowsHide:!0})}catch(e){throw A(t,e instanceof Error?e:new Error(E(e)))}f.add(this),this.child.stderr.setEncoding("utf8"),this.child.stderr.on("data",e=>this.stderr.push(e)),this.stderrEnded=new Promise(e=>{this.child.stderr.once("close",e),this.child.stderr.once("error",e)}),this.child.stdin.on("error",()=>{}),this.exited=new Promise(e=>{this.child.once("error",i=>{this.spawnError=i,this.exitInfo??={code:null,signal:null},e(this.exitInfo)}),this.child.once("exit",(i,s)=>{this.exitInfo={code:i,signal:s},e(this.exitInfo)})})}spec;child;stderr=new h;stdoutTail;descendants=new b;exited;stderrEnded;exitInfo;spawnError;get pid(){return this.child.pid}get hasExited(){return this.exitInfo!==void 0}readStdout(){let t=this.stdoutTail=new h;this.child.stdout.setEncoding("utf8"),this.child.stdout.on("data",e=>t.push(e))}get failedExit(){return this.exitInfo!==void 0&&(this.exitInfo.code!==0||this.exitInfo.signal!==null)}describeExit(){if(this.spawnError)return`could not start (${this.spawnError.message})`;if(!this.exitInfo)return;let{code:t,signal:e}=this.exitInfo;return e?`was killed by ${e}`:`exited with code ${t}`}get failure(){return this.spawnError?A(this.spec,this.spawnError):void 0}async stderrRead(t){await c(this.stderrEnded,t)}waitForExit(t){return c(this.exited,t)}killGroup(t){let e=this.child.pid;if(e!==void 0)try{process.platform==="win32"?this.child.kill(t):process.kill(-e,t)}catch{}}collectDescendants(){this.descendants.collect(this.hasExited?void 0:this.child.pid)}killAll(){this.descendants.kill(this.hasExited?void 0:this.child.pid),this.killGroup("SIGKILL")}async groupGone(t){let e=this.child.pid;if(e===void 0||process.platform==="win32")return;let i=Date.now()+t;for(;;){try{process.kill(-e,0)}catch{return}if(z(e)||Date.now()>i)return;await new Promise(s=>setTimeout(s,10))}}async stop(t=2e3){this.child.pid!==void 0&&(this.collectDescendants(),this.child.stdin.end(),!this.hasExited&&!await c(this.exited,100)&&(this.collectDescendants(),this.killGroup("SIGTERM"),await c(this.exited,t)||(this.collectDescendants(),this.killGroup("SIGKILL"),await c(this.exited,t))),this.killAll(),await Promise.all([this.groupGone(1e3),this.descendants.gone(1e3)])),this.child.stdout.destroy(),this.child.stderr.destroy(),f.delete(this)}};function A(n,t){let e=t.code;return e==="ENOENT"&&n.cwd!==void 0&&!X(n.cwd)?new o(`Could not start the server: its working directory ${n.cwd} does not exist.`,"Check the path given with --cwd (or cwd in the config file); a relative path is taken from where the audit runs."):e==="ENOENT"&&/\s/.test(n.command.trim())?new o(`Could not start the server: the command "${n.command}" was not found; it is run as one program name, spaces and all, never through a shell.`,`Split off the arguments: command: ${n.command.trim().split(/\s+/)[0]}, args: [${n.command.trim().split(/\s+/).slice(1).join(", ")}] in a config file.`):e==="ENOENT"?new o(`Could not start the server: the command "${n.command}" was not found${n.cwd?` (working directory ${n.cwd})`:""}.`,"Check the command for typos, install it, or give its full path (it is looked up on PATH)."):e==="EACCES"?new o(`Could not start the server: "${n.command}" is not executable.`,"Make it executable (chmod +x) or run it through its interpreter, e.g. node server.js."):new o(`Could not start the server "${n.command}": ${t.message}.`,"Check the command and its arguments.")}function z(n){if(process.platform!=="linux")return!1;let t=_();return t!==void 0&&![...t.values()].some(e=>e.pgrp===n&&e.state!=="Z")}function X(n){try{return K(n).isDirectory()}catch{return!1}}async function c(n,t){let e,i=new Promise(s=>{e=setTimeout(()=>s(!1),t)});try{return await Promise.race([n.then(()=>!0),i])}finally{clearTimeout(e)}}var m=[];function Q(n,t){let e=i=>Object.keys(i).sort().join("\0");return n.command===t.command&&L(n.cwd??".")===L(t.cwd??".")&&n.args.length===t.args.length&&n.args.every((i,s)=>i===t.args[s])&&e(n.env)===e(t.env)&&Object.entries(n.env).every(([i,s])=>t.env[i]===s)}function be(n){m.push(new I(n))}function Ie(n){let t=m.findIndex(e=>Q(e.spec,n));return t<0?void 0:m.splice(t,1)[0]}async function ke(){await Promise.all(m.splice(0).map(n=>n.stop()))}var g=new Set;function Pe(n){let t=n.stop();g.add(t),t.finally(()=>g.delete(t))}async function $e(){for(;g.size;)await Promise.all([...g])}export{w as a,l as b,ee as c,te as d,u as e,ie as f,x as g,ae as h,o as i,E as j,ce as k,p as l,O as m,ue as n,P as o,S as p,pe as q,he as r,fe as s,J as t,Ee as u,Se as v,ye as w,I as x,be as y,Ie as z,ke as A,Pe as B,$e as C};
