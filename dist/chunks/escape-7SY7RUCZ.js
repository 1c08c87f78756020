import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-3YRTUPL3.js";import"./chunk-NYRTOUVY.js";export{d as INVISIBLE,a as bound,g as codeSpanSafe,c as linesSafe,f as markdownSafe,h as noWorkflowCommands,b as terminalSafe,e as unicodeEscape};
