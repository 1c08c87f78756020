import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a as k}from"./chunk-N4ZMCNJQ.js";import{F as x,H as A,J as g,K as F,a as O,c as b,d as C}from"./chunk-DVRRY5ME.js";import{c as E}from"./chunk-LXY5ZUFN.js";import{parseArgs as L}from"node:util";function u(e,n="main"){return new O(e,`Run mcp-annotation-auditor ${n==="main"?"":`${n} `}--help for usage.`)}function w(e){return F.filter(n=>n.flag!==void 0&&(n.flag.commands.includes(e)||n.flag.ignoredBy?.[e]!==void 0))}function R(e,n){return e.flag.per?.[n]?.kind??e.kind}function V(e,n,t){let o=t.map(i=>i.flag.name);for(let i=0;i<e.length;i++){let s=e[i];if(!s.startsWith("-")||s==="-")continue;let a=s.startsWith("--"),l=a?s.slice(2).split("=")[0]??"":s.slice(1),r=t.find(d=>a?d.flag.name===l:d.flag.short===l);if(r===void 0){let d=C(l,o,!1);throw u(`Unknown option ${s.split("=")[0]}${d!==void 0?`; did you mean --${d}?`:"."}`,n)}let c=r.flag.name,h=a&&s.includes("=");if(r.kind.arity==="switch"&&h)throw u(`--${c} is a switch and takes no value: write --${c} alone.`,n);if(r.kind.arity!=="switch"&&!h){let d=e[i+1];if(d===void 0||d.startsWith("--"))throw u(`--${c} needs a value${d!==void 0?` (it is followed by the option ${d})`:""}: write --${c} VALUE.`,n);i++}}}function M(e,n,t){return n.flagMessage?.(e,t)??`--${e} must be ${n.expected.flag}, not "${t.shown}"${t.note!==void 0?` (${t.note})`:""}.`}function B(e,n,t){let o={};for(let i of t){let{flag:s}=i,a=e[s.name];if(a===void 0)continue;if(!s.commands.includes(n))throw u(`--${s.name} would be ignored: ${s.ignoredBy?.[n]}. Give it to ${s.commands.join(" or ")}, or leave it out.`,n);let l=(Array.isArray(a)?a:[a]).map(String),r=R(i,n),c=r.parse(s.split?l.flatMap(h=>h.split(s.split)).filter(Boolean):l);if("refused"in c)throw u(M(s.name,r,c.refused),n);o[i.id]=c.value}return o}function N(e){let n=e.indexOf("--"),t=n<0?e:e.slice(0,n),o=t[0];if(!g.includes(o)){let r=C(o??"",[...g],!1);throw u(`Unknown command "${o}"${r!==void 0?`; did you mean ${r}?`:`: use ${g.join(", ")}.`}`)}let i=o,s=w(i);V(t.slice(1),i,s);let a;try{a=L({args:t.slice(1),allowPositionals:!0,strict:!0,options:Object.fromEntries(s.map(r=>[r.flag.name,{type:r.kind.arity==="switch"?"boolean":"string",multiple:r.kind.arity==="many",...r.flag.short!==void 0?{short:r.flag.short}:{}}]))})}catch(r){throw u(r.message,i)}let l=n<0?[]:e.slice(n+1);return{mode:i,values:B(a.values,i,s),positionals:a.positionals,server:l,dashdash:n>=0}}function X(e){return{exitCode:2,stdout:"",stderr:`mcp-annotation-auditor: ${E(b(e),1/0)}
`}}var U=95,$=29;function I(e,n){let t=[],o="";for(let i of e.split(/\s+/).filter(Boolean))o&&o.length+1+i.length>n?(t.push(o),o=i):o=o?`${o} ${i}`:i;return o?[...t,o]:t}function j(e,n){let t=`  ${e}`,o=t.length<$-1?t.padEnd($):`${t}   `,[i="",...s]=I(n,U-o.length),a=I(s.join(" "),U-$).map(l=>`${" ".repeat($)}${l}`);return[`${o}${i}`,...a].join(`
`)}function P(e,n){let{flag:t}=e,o=R(e,n),i=t.per?.[n]?.value??t.value??o.values?.join("|");return`${t.short!==void 0?`-${t.short}, `:""}--${t.name}${i!==void 0?` ${i}`:""}`}function m(e,n){return w(e).filter(t=>t.flag.commands.includes(e)).filter(t=>n===void 0||t.flag.group===n).map(t=>j(P(t,e),t.flag.per?.[e]?.doc??t.flag.doc))}function S(e){return[`${e[0]?.toUpperCase()}${e.slice(1)} options:`,...m(e,"own"),"","Server (one of):",j("-- <command> [args...]","start a stdio server (everything after -- is its command line)"),...m(e,"server"),j("(neither)","the servers listed in the config file"),"Server options:",...m(e,"common")].join(`
`)}var f={list:`Lists every tool with each hint as declared true, declared false or absent (-), the class
(read, edit, delete), the open/closed reach and the title. Exits 0 unless the audit cannot run.`,check:`Checks each tool against the enabled policies and the class list, and (with a base) what
the change does to the tool surface.`,update:`Writes the class list from the live server: sorted, stable, each tool's "reason" kept
(also across a rename). Refuses to overwrite a file it cannot parse. Writes only inside the
repository (git's top level, else the current folder): a path or symbolic link leading out of
it is refused before any server starts.`,rules:`Prints the Claude Code settings {"permissions": {"allow", "ask", "deny"}} that the reviewed
class list maps to, one rule per tool by full name (mcp__<server>__<tool>), sorted. Default
mapping: read -> allow, edit -> ask, delete -> deny; clientRules in the config file changes it
per class, per reach and per tool. The live server is never asked: rules come from the list.`,justifications:`Prints (or --write) OpenAI's tool-hint-justifications.json for the reviewed class list: per
tool, readOnlyHint, openWorldHint and destructiveHint as recorded (null where a hint is not
declared: it blocks a submission), and a TODO placeholder for each justification, which a person
writes. The live server is never asked. check reports the file against the tools (openai policy).`},p="[options] -- <command> [args...]",v={main:`mcp-annotation-auditor ${k}: keep an MCP server's tool annotations honest.

Usage:
  mcp-annotation-auditor list   ${p}
  mcp-annotation-auditor check  ${p}
  mcp-annotation-auditor update ${p}
  mcp-annotation-auditor rules  ${w("rules").filter(e=>e.flag.group==="own"&&e.flag.commands.includes("rules")).map(e=>`[${P(e,"rules")}]`).join(" ")}
  mcp-annotation-auditor justifications [--write FILE] [--server NAME]

Commands:
  list     list the server's tools with their hints, class (read/edit/delete) and reach
  check    check annotations against directory policies and the committed class list
  update   write the class list from the live server (commit it to accept a change)
  rules    print (or --write) the Claude Code permissions the class list maps to
  justifications  print (or --write) OpenAI's hint justifications file from the class list

Run mcp-annotation-auditor <command> --help for its options.
Exit codes: 0 passed, 1 findings at or above --fail-on, 2 the audit could not run.`,list:`Usage: mcp-annotation-auditor list ${p}

${f.list}

${S("list")}`,check:`Usage: mcp-annotation-auditor check ${p}

${f.check}

${S("check")}`,update:`Usage: mcp-annotation-auditor update ${p}

${f.update}

${S("update")}`,rules:`Usage: mcp-annotation-auditor rules [options]

${f.rules}

Rules options:
${m("rules").join(`
`)}`,justifications:`Usage: mcp-annotation-auditor justifications [options]

${f.justifications}

Justifications options:
${m("justifications").join(`
`)}`};function Y(e){let n=e.indexOf("--"),t=n<0?e:e.slice(0,n),o=t[0];if(o===void 0)return{exitCode:2,stdout:"",stderr:`${v.main}
`};if(o==="-h"||o==="--help"||o==="help")return{exitCode:0,stdout:`${v.main}
`,stderr:""};if(o==="--version"||o==="-v")return{exitCode:0,stdout:`${k}
`,stderr:""};let i=Object.hasOwn(v,o)?v[o]:void 0;if(i!==void 0&&o!=="main"&&t.slice(1).some(s=>s==="--help"||s==="-h"))return{exitCode:0,stdout:`${i}
`,stderr:""}}import{resolve as W}from"node:path";var y=[];function H(e,n){let t=o=>Object.keys(o).sort().join("\0");return e.command===n.command&&W(e.cwd??".")===W(n.cwd??".")&&e.args.length===n.args.length&&e.args.every((o,i)=>o===n.args[i])&&t(e.env)===t(n.env)&&Object.entries(e.env).every(([o,i])=>n.env[o]===i)}function te(e){y.push(new x(e)),import("./sdk-5BC4OF7J.js").catch(()=>{})}function oe(e){let n=y.findIndex(t=>H(t.spec,e));return(n<0?void 0:y.splice(n,1)[0])??new x(e)}async function ie(){y.length=0,await A()}export{u as a,N as b,X as c,v as d,Y as e,te as f,oe as g,ie as h};
