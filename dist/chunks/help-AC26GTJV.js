import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a,b}from"./chunk-YQS66OQH.js";import"./chunk-N4ZMCNJQ.js";import"./chunk-Z7SNM3PP.js";import"./chunk-NYRTOUVY.js";export{a as HELP,b as quickAnswer};
