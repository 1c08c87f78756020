import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{H as i,L as e,b as o,h as r}from"./chunks/chunk-4X3NOVA7.js";import"./chunks/chunk-NYRTOUVY.js";async function n(){i(process.env);try{let{run:t}=await import("./chunks/main-QRA6YJUR.js");await t(process.env)}finally{await e()}}n().catch(t=>{process.stderr.write(`mcp-annotation-auditor: the action could not write its results: ${o(t)}
`),process.exitCode=1}).then(r);
