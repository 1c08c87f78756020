import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{D as a,E as b,F as c,G as d}from"./chunk-IR6KXIFA.js";import"./chunk-VNAEEH3W.js";import"./chunk-DP2B6Z3C.js";import"./chunk-2P2RNNYK.js";export{c as clientRulesInput,b as configSettings,a as requiredClassList,d as runRules};
