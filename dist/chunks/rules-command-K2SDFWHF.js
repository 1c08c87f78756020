import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{H as a,I as b,J as c,K as d,L as e}from"./chunk-66DIIMGP.js";import"./chunk-JI656OAS.js";import"./chunk-JCRBVHOK.js";import"./chunk-2P2RNNYK.js";export{c as DEFAULT_SETTINGS,d as clientRulesInput,b as configSettings,a as requiredClassList,e as runRules};
