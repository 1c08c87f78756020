#!/usr/bin/env node
import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{F as n,K as a,c as e,j as s}from"./chunks/chunk-OKMVUE3H.js";import"./chunks/chunk-Z7SNM3PP.js";import"./chunks/chunk-NYRTOUVY.js";async function c(r){try{let{runCli:t}=await import("./chunks/commands-UI7IOHCM.js");return await t(r)}catch(t){return{exitCode:2,stdout:"",stderr:`mcp-annotation-auditor: ${e(t)}
`}}}async function m(){let r=process.argv.slice(2);n(r);try{let[{quickAnswer:t},{noWorkflowCommands:i}]=await Promise.all([import("./chunks/help-AC26GTJV.js"),import("./chunks/escape-7SY7RUCZ.js")]),o=t(r)??await c(r);o.stdout&&process.stdout.write(i(o.stdout)),o.stderr&&process.stderr.write(i(o.stderr)),process.exitCode=o.exitCode}finally{await a()}}m().then(s);
