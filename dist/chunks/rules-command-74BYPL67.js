import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-DITD2PSR.js";import"./chunk-T52HGTHE.js";import"./chunk-CNC5RXIZ.js";import"./chunk-ELGKJTVD.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
