import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-IIYK5MAO.js";import"./chunk-D3M6XXKH.js";import"./chunk-UX7JT3Y4.js";import"./chunk-LXY5ZUFN.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
