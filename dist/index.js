import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{b as o,h as r,k as e,ta as i,xa as n}from"./chunks/chunk-B2EKDONX.js";import"./chunks/chunk-EQK3CQJ4.js";import"./chunks/chunk-NYRTOUVY.js";async function s(){i(process.env);try{let{run:t}=await import("./chunks/main-67TIUACL.js");await t(process.env)}finally{await n(),await e()}}s().catch(t=>{process.stderr.write(`mcp-annotation-auditor: the action could not write its results: ${o(t)}
`),process.exitCode=1}).then(r);
