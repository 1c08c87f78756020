import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var x=".github/mcp-annotation-auditor.yml",h="mcp-tool-classes.json",N=["claude","openai","explicit"];var u="0.1.0";var p=`Server (one of):
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
  --config FILE              config file (default ${x} when it exists)
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

${p}`};function U(t){let e=t.indexOf("--"),n=e<0?t:t.slice(0,e),i=n[0];if(i===void 0)return{exitCode:2,stdout:"",stderr:`${f.main}
`};if(i==="-h"||i==="--help"||i==="help")return{exitCode:0,stdout:`${f.main}
`,stderr:""};if(i==="--version"||i==="-v")return{exitCode:0,stdout:`${u}
`,stderr:""};let r=f[i];if(r!==void 0&&i!=="main"&&n.slice(1).some(o=>o==="--help"||o==="-h"))return{exitCode:0,stdout:`${r}
`,stderr:""}}var s=class extends Error{constructor(n,i,r){super(n);this.hint=i;this.details=r}hint;details;name="AuditError"};function m(t){if(t instanceof Error)return t.message;if(typeof t=="string")return t;try{return JSON.stringify(t)??String(t)}catch{return String(t)}}function F(t){if(t instanceof s){let e=[t.message];t.hint&&e.push(t.hint);let n=e.join(" ");return t.details&&(n+=`
${t.details}`),n}return`The audit failed unexpectedly: ${m(t)}. This is a bug in mcp-annotation-auditor; please report it with this message.`}import{spawn as y}from"node:child_process";import{readdirSync as b,readFileSync as I,statSync as P}from"node:fs";import{resolve as v}from"node:path";var k=["PATH","HOME","LOGNAME","USER","SHELL","TERM","LANG","LC_ALL","TMPDIR","TZ","SystemRoot","ComSpec","PATHEXT","TEMP","TMP","APPDATA","LOCALAPPDATA","USERPROFILE"];function J(t,e=process.env,n=!0){let i={};if(n)for(let r of k){let o=e[r];o!==void 0&&(i[r]=o)}for(let[r,o]of Object.entries(t))o!==null?i[r]=o:e[r]!==void 0&&(i[r]=e[r]);return i}function V(t){let e={};for(let n of t){let i=n.indexOf("=");if(i===0)throw new s(`Bad environment entry "${n}": the name is empty.`,"Use KEY=VALUE or KEY.");let r=i<0?n:n.slice(0,i);if(/\s/.test(r))throw new s(`Bad environment entry "${n}": the name "${r}" holds a space.`,"Use KEY=VALUE with no spaces around =, or a bare KEY.");i<0?e[n]=null:e[r]=n.slice(i+1)}return e}var g=class{constructor(e=16384){this.limit=e}limit;text="";dropped=0;push(e){this.text+=e,this.text.length>this.limit*2&&(this.dropped+=this.text.length-this.limit,this.text=this.text.slice(-this.limit))}toString(){let e=this.text.length>this.limit?this.text.slice(-this.limit):this.text,n=this.dropped+(this.text.length-e.length);return n>0?`[${n} earlier characters not shown]
${e}`:e}},d=new Set,E=!1;function L(){if(!E){E=!0,process.on("exit",()=>{for(let t of d)t.killGroup("SIGKILL")});for(let t of["SIGINT","SIGTERM","SIGHUP"])process.once(t,()=>{for(let e of d)e.killGroup("SIGKILL");process.exit(t==="SIGINT"?130:143)})}}function Y(){let t=2,e=()=>{t-=1,t===0&&process.exit()};for(let n of[process.stdout,process.stderr])n.writableLength>0?n.write("",e):e()}var w=class{constructor(e){this.spec=e;if(L(),!e.command)throw new s("The server command is empty.","Give the program to run first, e.g. node server.js.");try{this.child=y(e.command,e.args,{cwd:e.cwd,env:e.env,stdio:["pipe","pipe","pipe"],detached:process.platform!=="win32",windowsHide:!0})}catch(n){throw S(e,n instanceof Error?n:new Error(m(n)))}d.add(this),this.child.stderr.setEncoding("utf8"),this.child.stderr.on("data",n=>this.stderr.push(n)),this.stderrEnded=new Promise(n=>{this.child.stderr.once("close",n),this.child.stderr.once("error",n)}),this.child.stdin.on("error",()=>{}),this.exited=new Promise(n=>{this.child.once("error",i=>{this.spawnError=i,this.exitInfo??={code:null,signal:null},n(this.exitInfo)}),this.child.once("exit",(i,r)=>{this.exitInfo={code:i,signal:r},n(this.exitInfo)})})}spec;child;stderr=new g;exited;stderrEnded;exitInfo;spawnError;get pid(){return this.child.pid}get hasExited(){return this.exitInfo!==void 0}describeExit(){if(this.spawnError)return`could not start (${this.spawnError.message})`;if(!this.exitInfo)return;let{code:e,signal:n}=this.exitInfo;return n?`was killed by ${n}`:`exited with code ${e}`}get failure(){return this.spawnError?S(this.spec,this.spawnError):void 0}async stderrRead(e){await a(this.stderrEnded,e)}waitForExit(e){return a(this.exited,e)}killGroup(e){let n=this.child.pid;if(n!==void 0)try{process.platform==="win32"?this.child.kill(e):process.kill(-n,e)}catch{}}async groupGone(e){let n=this.child.pid;if(n===void 0||process.platform==="win32")return;let i=Date.now()+e;for(;;){try{process.kill(-n,0)}catch{return}if(T(n)||Date.now()>i)return;await new Promise(r=>setTimeout(r,10))}}async stop(e=2e3){this.child.pid!==void 0&&(this.child.stdin.end(),!this.hasExited&&!await a(this.exited,100)&&(this.killGroup("SIGTERM"),await a(this.exited,e)||(this.killGroup("SIGKILL"),await a(this.exited,e))),this.killGroup("SIGKILL"),await this.groupGone(1e3)),this.child.stdout.destroy(),this.child.stderr.destroy(),d.delete(this)}};function S(t,e){let n=e.code;return n==="ENOENT"&&t.cwd!==void 0&&!C(t.cwd)?new s(`Could not start the server: its working directory ${t.cwd} does not exist.`,"Check the path given with --cwd (or cwd in the config file); a relative path is taken from where the audit runs."):n==="ENOENT"?new s(`Could not start the server: the command "${t.command}" was not found${t.cwd?` (working directory ${t.cwd})`:""}.`,"Check the command for typos, install it, or give its full path (it is looked up on PATH)."):n==="EACCES"?new s(`Could not start the server: "${t.command}" is not executable.`,"Make it executable (chmod +x) or run it through its interpreter, e.g. node server.js."):new s(`Could not start the server "${t.command}": ${e.message}.`,"Check the command and its arguments.")}function T(t){if(process.platform!=="linux")return!1;let e;try{e=b("/proc")}catch{return!1}for(let n of e){if(!/^\d+$/.test(n))continue;let i;try{i=I(`/proc/${n}/stat`,"utf8")}catch{continue}let[r,,o]=i.slice(i.lastIndexOf(")")+2).split(" ");if(Number(o)===t&&r!=="Z")return!1}return!0}function C(t){try{return P(t).isDirectory()}catch{return!1}}async function a(t,e){let n,i=new Promise(r=>{n=setTimeout(()=>r(!1),e)});try{return await Promise.race([t.then(()=>!0),i])}finally{clearTimeout(n)}}var c=[];function A(t,e){let n=i=>Object.keys(i).sort().join("\0");return t.command===e.command&&v(t.cwd??".")===v(e.cwd??".")&&t.args.length===e.args.length&&t.args.every((i,r)=>i===e.args[r])&&n(t.env)===n(e.env)&&Object.entries(t.env).every(([i,r])=>e.env[i]===r)}function B(t){c.push(new w(t))}function W(t){let e=c.findIndex(n=>A(n.spec,t));return e<0?void 0:c.splice(e,1)[0]}async function Z(){await Promise.all(c.splice(0).map(t=>t.stop()))}var l=new Set;function q(t){let e=t.stop();l.add(e),e.finally(()=>l.delete(e))}async function z(){for(;l.size;)await Promise.all([...l])}export{x as a,h as b,N as c,u as d,f as e,U as f,s as g,m as h,F as i,k as j,J as k,V as l,Y as m,w as n,B as o,W as p,Z as q,q as r,z as s};
