import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-RIWZMTMV.js";import"./chunk-I64LKIKA.js";import"./chunk-N4ZMCNJQ.js";import"./chunk-3XSTQ2DK.js";import"./chunk-MP2WBIXB.js";import"./chunk-LXY5ZUFN.js";import"./chunk-2CK5ZBJK.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
