import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-Y2DXKV7S.js";import"./chunk-N447ZV2T.js";import"./chunk-HOPYUQSD.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
