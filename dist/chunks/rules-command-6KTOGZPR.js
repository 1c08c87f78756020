import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-4CUGAIJ4.js";import"./chunk-NSGWSZ25.js";import"./chunk-JUFZXOZK.js";import"./chunk-RUSZMXOG.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
