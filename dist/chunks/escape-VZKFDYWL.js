import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b,c,d,e,f,g,h,i}from"./chunk-RUSZMXOG.js";import"./chunk-2P2RNNYK.js";export{d as INVISIBLE,a as bound,h as codeSpanSafe,c as linesSafe,g as markdownProse,f as markdownSafe,i as noWorkflowCommands,b as terminalSafe,e as unicodeEscape};
