import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b,c,d,e,f,g,h,i,j,k}from"./chunk-LXY5ZUFN.js";import"./chunk-NYRTOUVY.js";export{d as INVISIBLE,e as UNSEEN_IN_JSON,a as bound,j as codeSpanSafe,c as linesSafe,i as markdownProse,h as markdownSafe,k as noWorkflowCommands,g as reviewedJson,b as terminalSafe,f as unicodeEscape};
