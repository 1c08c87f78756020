import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-3PYORFLT.js";import"./chunk-DEER5NFS.js";import"./chunk-YXTAZ3MM.js";import"./chunk-LXY5ZUFN.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
