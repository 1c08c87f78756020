import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-5EEGUBR3.js";import"./chunk-7XCWP4I6.js";import"./chunk-UX7JT3Y4.js";import"./chunk-ELGKJTVD.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
