import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-2IT4JJDJ.js";import"./chunk-NLQAH6CS.js";import"./chunk-N4ZMCNJQ.js";import"./chunk-5RHYNLZI.js";import"./chunk-MP2WBIXB.js";import"./chunk-LXY5ZUFN.js";import"./chunk-2CK5ZBJK.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
