import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-UELLKY3T.js";import"./chunk-ZDCUOKTA.js";import"./chunk-EA2RMY2F.js";import"./chunk-7CULMLUT.js";import"./chunk-2P2RNNYK.js";export{a as requiredClassList,b as runRules};
