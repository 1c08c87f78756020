import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var t=class extends Error{name;status;request;response;constructor(r,a,e){super(r,{cause:e.cause}),this.name="HttpError",this.status=Number.parseInt(a),Number.isNaN(this.status)&&(this.status=0);"response"in e&&(this.response=e.response);let s=Object.assign({},e.request);e.request.headers.authorization&&(s.headers=Object.assign({},e.request.headers,{authorization:e.request.headers.authorization.replace(/(?<! ) .*$/," [REDACTED]")})),s.url=s.url.replace(/\bclient_secret=\w+/g,"client_secret=[REDACTED]").replace(/\baccess_token=\w+/g,"access_token=[REDACTED]"),this.request=s}};export{t as a};
/*! Bundled license information:

@octokit/request-error/dist-src/index.js:
  (* v8 ignore else -- @preserve -- Bug with vitest coverage where it sees an else branch that doesn't exist *)
*/
