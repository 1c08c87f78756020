import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-VNTF7SP7.js";import"./chunk-YJRZBC7M.js";import"./chunk-N4ZMCNJQ.js";import"./chunk-SGEYK3K4.js";import"./chunk-PVEAOPBH.js";import"./chunk-LXY5ZUFN.js";import"./chunk-2CK5ZBJK.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
