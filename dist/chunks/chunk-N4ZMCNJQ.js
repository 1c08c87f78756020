import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var o="0.1.0",t=`npx mcp-annotation-auditor@${o}`;export{o as a,t as b};
