#!/usr/bin/env node
import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{B as s,Ba as d,E as n,j as i,m as e,u as o,ya as a}from"./chunks/chunk-XQJJUPQZ.js";import"./chunks/chunk-DP2B6Z3C.js";import"./chunks/chunk-2P2RNNYK.js";async function m(r){a(r);try{let{runCli:t}=await import("./chunks/commands-RTHHZ3V2.js");return await t(r)}catch(t){return{exitCode:2,stdout:"",stderr:`mcp-annotation-auditor: ${e(t)}
`}}finally{await d(),await n()}}async function c(){let r=process.argv.slice(2),t=i(r)??await m(r);t.stdout&&process.stdout.write(o(t.stdout)),t.stderr&&process.stderr.write(o(t.stderr)),process.exitCode=t.exitCode}c().then(s);
