import { envInputNames } from '../config/inputs.js';

/** A credential of this step that no server under audit is given: its name, and its value. */
export interface Credential {
  what: string;
  value: string;
}

/** The runner's credentials by name: its tokens and the URLs of its services (ACTIONS_*). */
const RUNNER_CREDENTIAL = /^ACTIONS_[A-Z0-9_]*(?:TOKEN|URL)$/;

/**
 * The step's credentials: the github-token (for the comment alone), and the runner's own (the
 * runtime token the cache and artifacts take, the OIDC token request's token and URL, the
 * service URLs: every ACTIONS_*TOKEN or ACTIONS_*URL long enough to be one) but those the
 * workflow's env input names, which it passes on by choice. The PR's config may name any
 * variable of the step: what it names of these stays with the runner.
 */
export function stepCredentials(token: string | undefined, env: NodeJS.ProcessEnv): Credential[] {
  const given = new Set(envInputNames(env));
  const runner = Object.entries(env).flatMap(([name, value]) =>
    RUNNER_CREDENTIAL.test(name) && !given.has(name) && value !== undefined && value.length >= 16
      ? [{ what: name, value }]
      : [],
  );
  return token ? [{ what: 'the github-token', value: token }, ...runner] : runner;
}

/** The first credential one of `words` holds, if any. */
export function heldIn(words: string[], credentials: Credential[]): Credential | undefined {
  return credentials.find(({ value }) => words.some((word) => word.includes(value)));
}
