import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{H as i,L as o,h as t}from"./chunks/chunk-P5SVHVI3.js";import"./chunks/chunk-NYRTOUVY.js";async function r(){i(process.env);try{let{run:n}=await import("./chunks/main-I3QV7EOI.js");await n(process.env)}finally{await o()}}r().then(t);
