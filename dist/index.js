import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{H as i,L as o,h as t}from"./chunks/chunk-N37G5ZDO.js";import"./chunks/chunk-NYRTOUVY.js";async function r(){i(process.env);try{let{run:n}=await import("./chunks/main-FHK4HLUW.js");await n(process.env)}finally{await o()}}r().then(t);
