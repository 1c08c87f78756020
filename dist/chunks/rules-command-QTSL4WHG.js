import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-Q67MERMJ.js";import"./chunk-AWLNJ34E.js";import"./chunk-N4ZMCNJQ.js";import"./chunk-E74BGXW7.js";import"./chunk-DVRRY5ME.js";import"./chunk-LXY5ZUFN.js";import"./chunk-2CK5ZBJK.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
