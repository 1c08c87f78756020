import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-KCAA5MNW.js";import"./chunk-2ZQ7ZG63.js";import"./chunk-IUUZOPSM.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
