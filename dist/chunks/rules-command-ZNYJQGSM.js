import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-BGASZ6WP.js";import"./chunk-N45GT36F.js";import"./chunk-N4ZMCNJQ.js";import"./chunk-2VF46A74.js";import"./chunk-YG37ZHTL.js";import"./chunk-LXY5ZUFN.js";import"./chunk-2CK5ZBJK.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
