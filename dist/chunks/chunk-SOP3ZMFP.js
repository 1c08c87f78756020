import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{C as R,G as m,H as E,a as k,c as C,v as O}from"./chunk-Z25TSSEJ.js";import{parseArgs as P}from"node:util";function u(e,n="main"){return new O(e,`Run mcp-annotation-auditor ${n==="main"?"":`${n} `}--help for usage.`)}function h(e){return E.filter(n=>n.flag!==void 0&&(n.flag.commands.includes(e)||n.flag.ignoredBy?.[e]!==void 0))}function x(e,n){return e.flag.per?.[n]?.kind??e.kind}function V(e,n,t){let o=t.map(s=>s.flag.name);for(let s=0;s<e.length;s++){let i=e[s];if(!i.startsWith("-")||i==="-")continue;let a=i.startsWith("--"),l=a?i.slice(2).split("=")[0]??"":i.slice(1),r=t.find(d=>a?d.flag.name===l:d.flag.short===l);if(r===void 0){let d=C(l,o,!1);throw u(`Unknown option ${i.split("=")[0]}${d!==void 0?`; did you mean --${d}?`:"."}`,n)}let c=r.flag.name,f=a&&i.includes("=");if(r.kind.arity==="switch"&&f)throw u(`--${c} is a switch and takes no value: write --${c} alone.`,n);if(r.kind.arity!=="switch"&&!f){let d=e[s+1];if(d===void 0||d.startsWith("--"))throw u(`--${c} needs a value${d!==void 0?` (it is followed by the option ${d})`:""}: write --${c} VALUE.`,n);s++}}}function W(e,n,t){return n.flagMessage?.(e,t)??`--${e} must be ${n.expected.flag}, not "${t.shown}"${t.note!==void 0?` (${t.note})`:""}.`}function L(e,n,t){let o={};for(let s of t){let{flag:i}=s,a=e[i.name];if(a===void 0)continue;if(!i.commands.includes(n))throw u(`--${i.name} would be ignored: ${i.ignoredBy?.[n]}. Give it to ${i.commands.join(" or ")}, or leave it out.`,n);let l=(Array.isArray(a)?a:[a]).map(String),r=x(s,n),c=r.parse(i.split?l.flatMap(f=>f.split(i.split)).filter(Boolean):l);if("refused"in c)throw u(W(i.name,r,c.refused),n);o[s.id]=c.value}return o}function D(e){let n=e.indexOf("--"),t=n<0?e:e.slice(0,n),o=t[0];if(!m.includes(o)){let r=C(o??"",[...m],!1);throw u(`Unknown command "${o}"${r!==void 0?`; did you mean ${r}?`:`: use ${m.join(", ")}.`}`)}let s=o,i=h(s);V(t.slice(1),s,i);let a;try{a=P({args:t.slice(1),allowPositionals:!0,strict:!0,options:Object.fromEntries(i.map(r=>[r.flag.name,{type:r.kind.arity==="switch"?"boolean":"string",multiple:r.kind.arity==="many",...r.flag.short!==void 0?{short:r.flag.short}:{}}]))})}catch(r){throw u(r.message,s)}let l=n<0?[]:e.slice(n+1);return{mode:s,values:L(a.values,s,i),positionals:a.positionals,server:l,dashdash:n>=0}}var j=95,g=29;function F(e,n){let t=[],o="";for(let s of e.split(/\s+/).filter(Boolean))o&&o.length+1+s.length>n?(t.push(o),o=s):o=o?`${o} ${s}`:s;return o?[...t,o]:t}function b(e,n){let t=`  ${e}`,o=t.length<g-1?t.padEnd(g):`${t}   `,[s="",...i]=F(n,j-o.length),a=F(i.join(" "),j-g).map(l=>`${" ".repeat(g)}${l}`);return[`${o}${s}`,...a].join(`
`)}function U(e,n){let{flag:t}=e,o=x(e,n),s=t.per?.[n]?.value??t.value??o.values?.join("|");return`${t.short!==void 0?`-${t.short}, `:""}--${t.name}${s!==void 0?` ${s}`:""}`}function v(e,n){return h(e).filter(t=>t.flag.commands.includes(e)).filter(t=>n===void 0||t.flag.group===n).map(t=>b(U(t,e),t.flag.per?.[e]?.doc??t.flag.doc))}function S(e){return[`${e[0]?.toUpperCase()}${e.slice(1)} options:`,...v(e,"own"),"","Server (one of):",b("-- <command> [args...]","start a stdio server (everything after -- is its command line)"),...v(e,"server"),b("(neither)","the servers listed in the config file"),"Server options:",...v(e,"common")].join(`
`)}var $={list:`Lists every tool with each hint as declared true, declared false or absent (-), the class
(read, edit, delete), the open/closed reach and the title. Exits 0 unless the audit cannot run.`,check:`Checks each tool against the enabled policies and the class list, and (with a base) what
the change does to the tool surface.`,update:`Writes the class list from the live server: sorted, stable, each tool's "reason" kept
(also across a rename). Refuses to overwrite a file it cannot parse. Writes only inside the
repository (git's top level, else the current folder): a path or symbolic link leading out of
it is refused before any server starts.`,rules:`Prints the Claude Code settings {"permissions": {"allow", "ask", "deny"}} that the reviewed
class list maps to, one rule per tool by full name (mcp__<server>__<tool>), sorted. Default
mapping: read -> allow, edit -> ask, delete -> deny; clientRules in the config file changes it
per class, per reach and per tool. The live server is never asked: rules come from the list.`},p="[options] -- <command> [args...]",w={main:`mcp-annotation-auditor ${k}: keep an MCP server's tool annotations honest.

Usage:
  mcp-annotation-auditor list   ${p}
  mcp-annotation-auditor check  ${p}
  mcp-annotation-auditor update ${p}
  mcp-annotation-auditor rules  ${h("rules").filter(e=>e.flag.group==="own"&&e.flag.commands.includes("rules")).map(e=>`[${U(e,"rules")}]`).join(" ")}

Commands:
  list     list the server's tools with their hints, class (read/edit/delete) and reach
  check    check annotations against directory policies and the committed class list
  update   write the class list from the live server (commit it to accept a change)
  rules    print (or --write) the Claude Code permissions the class list maps to

Run mcp-annotation-auditor <command> --help for its options.
Exit codes: 0 passed, 1 findings at or above --fail-on, 2 the audit could not run.`,list:`Usage: mcp-annotation-auditor list ${p}

${$.list}

${S("list")}`,check:`Usage: mcp-annotation-auditor check ${p}

${$.check}

${S("check")}`,update:`Usage: mcp-annotation-auditor update ${p}

${$.update}

${S("update")}`,rules:`Usage: mcp-annotation-auditor rules [options]

${$.rules}

Rules options:
${v("rules").join(`
`)}`};function H(e){let n=e.indexOf("--"),t=n<0?e:e.slice(0,n),o=t[0];if(o===void 0)return{exitCode:2,stdout:"",stderr:`${w.main}
`};if(o==="-h"||o==="--help"||o==="help")return{exitCode:0,stdout:`${w.main}
`,stderr:""};if(o==="--version"||o==="-v")return{exitCode:0,stdout:`${k}
`,stderr:""};let s=Object.hasOwn(w,o)?w[o]:void 0;if(s!==void 0&&o!=="main"&&t.slice(1).some(i=>i==="--help"||i==="-h"))return{exitCode:0,stdout:`${s}
`,stderr:""}}import{resolve as A}from"node:path";var y=[];function M(e,n){let t=o=>Object.keys(o).sort().join("\0");return e.command===n.command&&A(e.cwd??".")===A(n.cwd??".")&&e.args.length===n.args.length&&e.args.every((o,s)=>o===n.args[s])&&t(e.env)===t(n.env)&&Object.entries(e.env).every(([o,s])=>n.env[o]===s)}function Q(e){y.push(new R(e)),import("./sdk-CSUJ65BF.js").catch(()=>{})}function X(e){let n=y.findIndex(t=>M(t.spec,e));return(n<0?void 0:y.splice(n,1)[0])??new R(e)}async function Y(){await Promise.all(y.splice(0).map(e=>e.stop()))}export{u as a,D as b,w as c,H as d,Q as e,X as f,Y as g};
