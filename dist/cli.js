#!/usr/bin/env node
import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{A as s,S as n,V as a,i,l as e,t as o}from"./chunks/chunk-ZICDJZV2.js";import"./chunks/chunk-2P2RNNYK.js";async function m(t){n(t);try{let{runCli:r}=await import("./chunks/commands-T7OPDUS5.js");return await r(t)}catch(r){return{exitCode:2,stdout:"",stderr:`mcp-annotation-auditor: ${e(r)}
`}}finally{await a()}}async function c(){let t=process.argv.slice(2),r=i(t)??await m(t);r.stdout&&process.stdout.write(o(r.stdout)),r.stderr&&process.stderr.write(o(r.stderr)),process.exitCode=r.exitCode}c().then(s);
