import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-5QUZ5TMM.js";import"./chunk-ZP2U3TZB.js";import"./chunk-UX7JT3Y4.js";import"./chunk-LXY5ZUFN.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
