import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var o=class{getValidator(){return()=>({valid:!1,data:void 0,errorMessage:"mcp-annotation-auditor does not validate tool results (it never calls a tool)."})}},e=new o;export{o as a,e as b};
