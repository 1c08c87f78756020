/** A credential of this step that no server under audit is given: its name, and its value. */
export interface Credential {
  what: string;
  value: string;
}

/**
 * The step's credentials: the github-token (for the comment alone), and the runner's own
 * (every ACTIONS_* variable long enough to be one: the runtime token the cache and artifacts
 * take, the OIDC token request's token and URL, the service URLs). No MCP server needs them, and
 * the PR's config may name any variable: whoever names them, they stay with the runner.
 */
export function stepCredentials(token: string | undefined, env: NodeJS.ProcessEnv): Credential[] {
  const runner = Object.entries(env).flatMap(([name, value]) =>
    name.startsWith('ACTIONS_') && value !== undefined && value.length >= 16
      ? [{ what: name, value }]
      : [],
  );
  return token ? [{ what: 'the github-token', value: token }, ...runner] : runner;
}

/** The first credential one of `words` holds, if any. */
export function heldIn(words: string[], credentials: Credential[]): Credential | undefined {
  return credentials.find(({ value }) => words.some((word) => word.includes(value)));
}
