import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{H as i,L as n,b as o,h as r,k as e}from"./chunks/chunk-XO2V26VS.js";import"./chunks/chunk-NYRTOUVY.js";async function s(){i(process.env);try{let{run:t}=await import("./chunks/main-VGXTZXSI.js");await t(process.env)}finally{await n(),await e()}}s().catch(t=>{process.stderr.write(`mcp-annotation-auditor: the action could not write its results: ${o(t)}
`),process.exitCode=1}).then(r);
