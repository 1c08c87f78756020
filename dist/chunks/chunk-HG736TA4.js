import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{E as R,I as g,J as b,a as k,c as C,x as O}from"./chunk-JUFZXOZK.js";import{parseArgs as P}from"node:util";function u(e,n="main"){return new O(e,`Run mcp-annotation-auditor ${n==="main"?"":`${n} `}--help for usage.`)}function w(e){return b.filter(n=>n.flag!==void 0&&(n.flag.commands.includes(e)||n.flag.ignoredBy?.[e]!==void 0))}function x(e,n){return e.flag.per?.[n]?.kind??e.kind}function W(e,n,t){let s=t.map(i=>i.flag.name);for(let i=0;i<e.length;i++){let o=e[i];if(!o.startsWith("-")||o==="-")continue;let a=o.startsWith("--"),l=a?o.slice(2).split("=")[0]??"":o.slice(1),r=t.find(c=>a?c.flag.name===l:c.flag.short===l);if(r===void 0){let c=C(l,s,!1);throw u(`Unknown option ${o.split("=")[0]}${c!==void 0?`; did you mean --${c}?`:"."}`,n)}let d=r.flag.name,h=a&&o.includes("=");if(r.kind.arity==="switch"&&h)throw u(`--${d} is a switch and takes no value: write --${d} alone.`,n);if(r.kind.arity!=="switch"&&!h){let c=e[i+1];if(c===void 0||c.startsWith("--"))throw u(`--${d} needs a value${c!==void 0?` (it is followed by the option ${c})`:""}: write --${d} VALUE.`,n);i++}}}function I(e,n,t){return n.flagMessage?.(e,t)??`--${e} must be ${n.expected.flag}, not "${t.shown}"${t.note!==void 0?` (${t.note})`:""}.`}function L(e,n,t){let s={};for(let i of t){let{flag:o}=i,a=e[o.name];if(a===void 0)continue;if(!o.commands.includes(n))throw u(`--${o.name} would be ignored: ${o.ignoredBy?.[n]}. Give it to ${o.commands.join(" or ")}, or leave it out.`,n);let l=(Array.isArray(a)?a:[a]).map(String),r=x(i,n),d=r.parse(o.split?l.flatMap(h=>h.split(o.split)).filter(Boolean):l);if("refused"in d)throw u(I(o.name,r,d.refused),n);s[i.id]=d.value}return s}function _(e){let n=e.indexOf("--"),t=n<0?e:e.slice(0,n),s=t[0];if(!g.includes(s)){let r=C(s??"",[...g],!1);throw u(`Unknown command "${s}"${r!==void 0?`; did you mean ${r}?`:`: use ${g.join(", ")}.`}`)}let i=s,o=w(i);W(t.slice(1),i,o);let a;try{a=P({args:t.slice(1),allowPositionals:!0,strict:!0,options:Object.fromEntries(o.map(r=>[r.flag.name,{type:r.kind.arity==="switch"?"boolean":"string",multiple:r.kind.arity==="many",...r.flag.short!==void 0?{short:r.flag.short}:{}}]))})}catch(r){throw u(r.message,i)}let l=n<0?[]:e.slice(n+1);return{mode:i,values:L(a.values,i,o),positionals:a.positionals,server:l,dashdash:n>=0}}var E=95,$=29;function F(e,n){let t=[],s="";for(let i of e.split(/\s+/).filter(Boolean))s&&s.length+1+i.length>n?(t.push(s),s=i):s=s?`${s} ${i}`:i;return s?[...t,s]:t}function S(e,n){let t=`  ${e}`,s=t.length<$-1?t.padEnd($):`${t}   `,[i="",...o]=F(n,E-s.length),a=F(o.join(" "),E-$).map(l=>`${" ".repeat($)}${l}`);return[`${s}${i}`,...a].join(`
`)}function U(e,n){let{flag:t}=e,s=x(e,n),i=t.per?.[n]?.value??t.value??s.values?.join("|");return`${t.short!==void 0?`-${t.short}, `:""}--${t.name}${i!==void 0?` ${i}`:""}`}function m(e,n){return w(e).filter(t=>t.flag.commands.includes(e)).filter(t=>n===void 0||t.flag.group===n).map(t=>S(U(t,e),t.flag.per?.[e]?.doc??t.flag.doc))}function j(e){return[`${e[0]?.toUpperCase()}${e.slice(1)} options:`,...m(e,"own"),"","Server (one of):",S("-- <command> [args...]","start a stdio server (everything after -- is its command line)"),...m(e,"server"),S("(neither)","the servers listed in the config file"),"Server options:",...m(e,"common")].join(`
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
  mcp-annotation-auditor rules  ${w("rules").filter(e=>e.flag.group==="own"&&e.flag.commands.includes("rules")).map(e=>`[${U(e,"rules")}]`).join(" ")}
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

${j("list")}`,check:`Usage: mcp-annotation-auditor check ${p}

${f.check}

${j("check")}`,update:`Usage: mcp-annotation-auditor update ${p}

${f.update}

${j("update")}`,rules:`Usage: mcp-annotation-auditor rules [options]

${f.rules}

Rules options:
${m("rules").join(`
`)}`,justifications:`Usage: mcp-annotation-auditor justifications [options]

${f.justifications}

Justifications options:
${m("justifications").join(`
`)}`};function G(e){let n=e.indexOf("--"),t=n<0?e:e.slice(0,n),s=t[0];if(s===void 0)return{exitCode:2,stdout:"",stderr:`${v.main}
`};if(s==="-h"||s==="--help"||s==="help")return{exitCode:0,stdout:`${v.main}
`,stderr:""};if(s==="--version"||s==="-v")return{exitCode:0,stdout:`${k}
`,stderr:""};let i=Object.hasOwn(v,s)?v[s]:void 0;if(i!==void 0&&s!=="main"&&t.slice(1).some(o=>o==="--help"||o==="-h"))return{exitCode:0,stdout:`${i}
`,stderr:""}}import{resolve as A}from"node:path";var y=[];function V(e,n){let t=s=>Object.keys(s).sort().join("\0");return e.command===n.command&&A(e.cwd??".")===A(n.cwd??".")&&e.args.length===n.args.length&&e.args.every((s,i)=>s===n.args[i])&&t(e.env)===t(n.env)&&Object.entries(e.env).every(([s,i])=>n.env[s]===i)}function Q(e){y.push(new R(e)),import("./sdk-QLQRFGB3.js").catch(()=>{})}function X(e){let n=y.findIndex(t=>V(t.spec,e));return(n<0?void 0:y.splice(n,1)[0])??new R(e)}async function Y(){await Promise.all(y.splice(0).map(e=>e.stop()))}export{u as a,_ as b,v as c,G as d,Q as e,X as f,Y as g};
