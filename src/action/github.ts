/**
 * The GitHub REST calls the action makes, over fetch. Only what the comment and the base class
 * list need; the client is a parameter everywhere so tests can point it at their own server.
 */

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

export class GitHubClient {
  constructor(
    private readonly token: string,
    private readonly baseUrl = 'https://api.github.com',
  ) {}

  /**
   * One request. A GET (it changes nothing) that meets a network error or a 5xx answer is tried
   * twice more, after 0.5 s and 1.5 s: those are most often over by then.
   */
  private async call<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ data: T; link: string | null }> {
    for (const delay of method === 'GET' ? RETRY_DELAYS : []) {
      try {
        return await this.callOnce<T>(method, path, body);
      } catch (error) {
        if (error instanceof GitHubError && error.status < 500) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    return this.callOnce<T>(method, path, body);
  }

  private async callOnce<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ data: T; link: string | null }> {
    const url = path.startsWith('http') ? path : `${this.baseUrl.replace(/\/$/, '')}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        Accept: 'application/vnd.github+json',
        Authorization: `Bearer ${this.token}`,
        'User-Agent': 'mcp-annotation-auditor',
        'X-GitHub-Api-Version': '2022-11-28',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // Not JSON: keep the text.
      }
      throw new GitHubError(
        `${method} ${path} failed with HTTP ${response.status}: ${message.slice(0, 300)}`,
        response.status,
      );
    }
    return { data: (text ? JSON.parse(text) : undefined) as T, link: response.headers.get('link') };
  }

  /** Every comment on an issue or PR, following the Link header. */
  async listComments(repo: RepoRef, issue: number): Promise<IssueComment[]> {
    const all: IssueComment[] = [];
    let next: string | undefined =
      `/repos/${repo.owner}/${repo.repo}/issues/${issue}/comments?per_page=100`;
    for (let page = 0; next && page < 100; page++) {
      const { data, link }: { data: IssueComment[]; link: string | null } = await this.call<
        IssueComment[]
      >('GET', next);
      all.push(...data);
      next = /<([^>]+)>;\s*rel="next"/.exec(link ?? '')?.[1];
    }
    return all;
  }

  async createComment(repo: RepoRef, issue: number, body: string): Promise<IssueComment> {
    return (
      await this.call<IssueComment>(
        'POST',
        `/repos/${repo.owner}/${repo.repo}/issues/${issue}/comments`,
        { body },
      )
    ).data;
  }

  async updateComment(repo: RepoRef, id: number, body: string): Promise<IssueComment> {
    return (
      await this.call<IssueComment>(
        'PATCH',
        `/repos/${repo.owner}/${repo.repo}/issues/comments/${id}`,
        { body },
      )
    ).data;
  }

  /** A file's text at a commit; null when the file does not exist there. */
  async getFileAt(repo: RepoRef, path: string, ref: string): Promise<string | null> {
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    try {
      const { data } = await this.call<{ type?: string; content?: string; encoding?: string }>(
        'GET',
        `/repos/${repo.owner}/${repo.repo}/contents/${encoded}?ref=${encodeURIComponent(ref)}`,
      );
      if (data.type !== 'file' || data.content === undefined)
        throw new GitHubError(`${path} at ${ref} is not a file`, 422);
      // Files over 1 MB come without content; the caller falls back to git.
      if (data.encoding === 'none')
        throw new GitHubError(`${path} at ${ref} is too large for the contents API`, 413);
      return Buffer.from(data.content, 'base64').toString('utf8');
    } catch (error) {
      if (error instanceof GitHubError && error.status === 404) return null;
      throw error;
    }
  }

  async getPull(repo: RepoRef, number: number): Promise<PullRequestInfo> {
    const { data } = await this.call<PullPayload>(
      'GET',
      `/repos/${repo.owner}/${repo.repo}/pulls/${number}`,
    );
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
