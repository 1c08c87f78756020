import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{G as i,K as e,b as o,j as r}from"./chunks/chunk-OKMVUE3H.js";import"./chunks/chunk-Z7SNM3PP.js";import"./chunks/chunk-NYRTOUVY.js";async function n(){i(process.env);try{let{run:t}=await import("./chunks/main-Z4TJCGK2.js");await t(process.env)}finally{await e()}}n().catch(t=>{process.stderr.write(`mcp-annotation-auditor: the action could not write its results: ${o(t)}
`),process.exitCode=1}).then(r);
