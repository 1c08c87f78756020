import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-7THGA7ZE.js";import"./chunk-DXOVXFC2.js";import"./chunk-N4ZMCNJQ.js";import"./chunk-QN5DZEFV.js";import"./chunk-VRQH6P2B.js";import"./chunk-LXY5ZUFN.js";import"./chunk-2CK5ZBJK.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
