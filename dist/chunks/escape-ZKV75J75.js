import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b,c,d,e,f,g,h,i,j}from"./chunk-ELGKJTVD.js";import"./chunk-NYRTOUVY.js";export{d as INVISIBLE,e as UNSEEN_IN_JSON,a as bound,i as codeSpanSafe,c as linesSafe,h as markdownProse,g as markdownSafe,j as noWorkflowCommands,b as terminalSafe,f as unicodeEscape};
