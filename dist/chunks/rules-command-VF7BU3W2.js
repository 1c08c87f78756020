import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-BXHNHNG5.js";import"./chunk-WQUB2L6A.js";import"./chunk-BGUX2ZVD.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
