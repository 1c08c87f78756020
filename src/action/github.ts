import { RequestError } from '@octokit/request-error';

/**
 * The GitHub REST calls the action makes, on @actions/github's Octokit: it follows the runner's
 * proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), a GitHub Enterprise Server's API URL, and
 * pages through lists. Only what the comment and the base class list need; the client is a
 * parameter everywhere so tests can point it at their own server.
 */

/** An answer of the API that is not a success; `status` is its HTTP status. */
export class GitHubError extends Error {
  override name = 'GitHubError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface IssueComment {
  id: number;
  body?: string;
  html_url?: string;
  user?: { login: string; type?: string } | null;
}

export interface PullRequestInfo {
  number: number;
  baseSha: string;
  headSha?: string;
  /** `owner/name` of the repository the head branch is in (a fork's, for a fork PR). */
  headRepo?: string;
  /** open or closed, as the API says; the event file's too. */
  state?: string;
  labels: string[];
}

export interface RepoRef {
  owner: string;
  repo: string;
}

/** The pauses before each retry of a GET. */
const RETRY_DELAYS = [500, 1_500];
/** A list longer than this many pages of 100 is cut: no PR has 10,000 comments of ours. */
const MAX_PAGES = 100;

type Octokit = ReturnType<(typeof import('@actions/github'))['getOctokit']>;

let loading: Promise<typeof import('@actions/github')> | undefined;

/**
 * @actions/github, loaded once. It reads and parses the event file as it loads, and throws on one
 * that is not JSON; the action reads the event itself (and goes on, with a warning, when it
 * cannot), so the library loads with the path hidden. The action awaits this before it goes on
 * (see readContext), so that nothing of its own runs while the path is hidden.
 */
export function loadGitHub(): Promise<typeof import('@actions/github')> {
  if (loading) return loading;
  const eventPath = process.env.GITHUB_EVENT_PATH;
  delete process.env.GITHUB_EVENT_PATH;
  loading = import('@actions/github').finally(() => {
    if (eventPath !== undefined) process.env.GITHUB_EVENT_PATH = eventPath;
  });
  return loading;
}

/** What a failed request says: `METHOD path failed with HTTP status: message`, or the network's. */
function describeFailure(error: unknown, method: string, path: string): unknown {
  if (!(error instanceof RequestError)) return error;
  // Octokit reports a request that got no answer (a refused connection, DNS) as a 500.
  if (error.response === undefined)
    return new Error(`${method} ${path} failed: ${error.message}`, { cause: error });
  // GitHub's JSON message, without the documentation link Octokit appends.
  const data = error.response.data as { message?: unknown } | string | undefined;
  const message =
    typeof data === 'object' && data !== null && typeof data.message === 'string'
      ? data.message
      : typeof data === 'string'
        ? data
        : error.message;
  return new GitHubError(
    `${method} ${path} failed with HTTP ${error.status}: ${message.slice(0, 300)}`,
    error.status,
  );
}

/**
 * A GET (it changes nothing) that meets a network error or a 5xx answer is tried twice more,
 * after 0.5 s and 1.5 s: those are most often over by then.
 */
async function retried<T>(
  method: string,
  path: string,
  once: () => T | Promise<T>,
  delays: readonly number[],
): Promise<T> {
  for (const delay of method === 'GET' ? delays : []) {
    try {
      return await once();
    } catch (error) {
      if (error instanceof RequestError && error.response && error.status < 500)
        throw describeFailure(error, method, path);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  try {
    return await once();
  } catch (error) {
    throw describeFailure(error, method, path);
  }
}

/** The most entries the contents API lists of one folder: a full listing may lack a name. */
const MAX_LISTED = 1_000;

export class GitHubClient {
  private readonly octokit: Promise<Octokit>;
  /** Folder listings by commit and folder, for proving a file absent (see absentAt). */
  private readonly listings = new Map<string, Promise<{ name: string; type: string }[] | null>>();

  constructor(
    token: string,
    baseUrl = 'https://api.github.com',
    /** The pauses before each retry of a GET; only code sets them (tests shorten them). */
    retryDelays: readonly number[] = RETRY_DELAYS,
  ) {
    const base = baseUrl.replace(/\/+$/, '');
    this.octokit = loadGitHub().then(({ getOctokit }) => {
      // The base URL is passed as given: the library's default is read once, as it loads.
      const octokit = getOctokit(token, { baseUrl: base, userAgent: 'mcp-annotation-auditor' });
      // Every request, pages of a list too: GitHub's API version, a 30 s bound, the retries.
      octokit.hook.wrap('request', async (request, options) => {
        options.headers['x-github-api-version'] = '2022-11-28';
        const { method, url } = octokit.request.endpoint(options);
        const path = url.startsWith(base) ? url.slice(base.length) : url;
        const signal = () => ({ ...options.request, signal: AbortSignal.timeout(30_000) });
        return retried(method, path, () => request({ ...options, request: signal() }), retryDelays);
      });
      return octokit;
    });
    // Awaited by each call; until one is made, a failed load must not count as unhandled.
    this.octokit.catch(() => undefined);
  }

  /** Every comment on an issue or PR, page by page. */
  async listComments(repo: RepoRef, issue: number): Promise<IssueComment[]> {
    const octokit = await this.octokit;
    let pages = 0;
    return octokit.paginate(
      octokit.rest.issues.listComments,
      { ...repo, issue_number: issue, per_page: 100 },
      (response, done) => {
        if (++pages >= MAX_PAGES) done();
        return response.data;
      },
    );
  }

  async createComment(repo: RepoRef, issue: number, body: string): Promise<IssueComment> {
    const octokit = await this.octokit;
    const { data } = await octokit.rest.issues.createComment({
      ...repo,
      issue_number: issue,
      body,
    });
    return data;
  }

  async updateComment(repo: RepoRef, id: number, body: string): Promise<IssueComment> {
    const octokit = await this.octokit;
    const { data } = await octokit.rest.issues.updateComment({ ...repo, comment_id: id, body });
    return data;
  }

  /**
   * A file's text at a commit; null when the file does not exist there; undefined when the API
   * cannot tell (it does not list the commit's root: a commit it does not know, a token that may
   * not read it), for git at the commit to decide. "Not found" alone is no proof: the contents
   * API does not follow a symlinked folder on the way (`cfg/list.json` with `cfg -> real`), so
   * the file must also be absent from the listings of the folders on its path.
   */
  async getFileAt(repo: RepoRef, path: string, ref: string): Promise<string | null | undefined> {
    const octokit = await this.octokit;
    let data: { type?: string; content?: string; encoding?: string };
    try {
      data = (await octokit.rest.repos.getContent({ ...repo, path, ref })).data as typeof data;
    } catch (error) {
      if (!(error instanceof GitHubError) || error.status !== 404) throw error;
      const absent = await this.absentAt(repo, path, ref);
      if (absent !== false) return absent;
      throw new GitHubError(
        `${path} at ${ref} was not found, but the folders on its path do not prove it absent (the contents API does not follow a symlinked folder or a submodule)`,
        422,
      );
    }
    if (data.type !== 'file' || data.content === undefined)
      throw new GitHubError(`${path} at ${ref} is not a file`, 422);
    // Files over 1 MB come without content; the caller falls back to git.
    if (data.encoding === 'none')
      throw new GitHubError(`${path} at ${ref} is too large for the contents API`, 413);
    return Buffer.from(data.content, 'base64').toString('utf8');
  }

  /**
   * Whether `path` is absent at the commit (null: it is): each folder on its way is listed as a
   * folder (`dir`) in its parent, down to a complete listing without the next name. Anything else
   * on the way (a symlink, a submodule, a file, a folder that cannot be listed, a listing cut at
   * the API's 1,000 entries) proves nothing (false). A root the API does not list at all is
   * undefined: it cannot read that commit. A listing is asked once a run.
   */
  private async absentAt(
    repo: RepoRef,
    path: string,
    ref: string,
  ): Promise<null | false | undefined> {
    const names = path.split('/').filter(Boolean);
    let folder = '';
    for (const [i, name] of names.entries()) {
      const entries = await this.listing(repo, folder, ref);
      if (entries === null && folder === '') return undefined;
      const entry = entries?.find((e) => e.name === name);
      if (entries && !entry) return entries.length < MAX_LISTED ? null : false;
      if (!entry || entry.type !== 'dir' || i === names.length - 1) return false;
      folder = folder ? `${folder}/${name}` : name;
    }
    return false;
  }

  /** A folder's entries at a commit; null when the path is not a folder the API can list. */
  private listing(repo: RepoRef, folder: string, ref: string) {
    const key = `${ref}\0${folder}`;
    let listed = this.listings.get(key);
    if (!listed) {
      listed = this.octokit.then(async (octokit) => {
        try {
          const { data } = await octokit.rest.repos.getContent({ ...repo, path: folder, ref });
          return Array.isArray(data) ? data.map(({ name, type }) => ({ name, type })) : null;
        } catch (error) {
          if (error instanceof GitHubError && error.status === 404) return null;
          throw error;
        }
      });
      this.listings.set(key, listed);
    }
    return listed;
  }

  async getPull(repo: RepoRef, number: number): Promise<PullRequestInfo> {
    const octokit = await this.octokit;
    const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: number });
    return pullInfo(data);
  }
}
/** The part of a `pull_request` object (event payload or API) the action reads. */
export interface PullPayload {
  number: number;
  base: { sha: string };
  head?: { sha?: string; repo?: { full_name?: string } | null };
  state?: string;
  labels?: { name?: string }[];
}

export function pullInfo(pull: PullPayload): PullRequestInfo {
  // Labels as the event file holds them: anything but a named label is skipped.
  const labels: unknown = pull.labels;
  const info: PullRequestInfo = {
    number: pull.number,
    baseSha: pull.base.sha,
    labels: Array.isArray(labels)
      ? labels.flatMap((l: unknown) => {
          const name = (l as { name?: unknown } | null)?.name;
          return typeof name === 'string' && name ? [name] : [];
        })
      : [],
  };
  if (typeof pull.head?.sha === 'string' && pull.head.sha) info.headSha = pull.head.sha;
  const headRepo = pull.head?.repo?.full_name;
  if (typeof headRepo === 'string' && headRepo) info.headRepo = headRepo;
  if (typeof pull.state === 'string') info.state = pull.state;
  return info;
}
