import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var o=".github/mcp-annotation-auditor.yml",t="mcp-tool-classes.json",e=".mcp.json",n=".claude/settings.json",s=["claude","openai","explicit"];export{o as a,t as b,e as c,n as d,s as e};
