/**
 * Which runtime an app is, as `platform app deploy` decides it (cli/src/deploy/runtime.ts):
 * GET /runtimes lists each runtime with file name patterns, in the order to test them; the
 * first whose pattern matches a top-level file of the app names the pipeline
 * `stagpipe::/platform::<runtime>`.
 */
export interface Runtime {
  runtime: string;
  patterns: string[];
}

/** `*.js` style patterns: `*` and `?` only, matched against a whole file name. */
export function matchesPattern(name: string, pattern: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(name);
}

export function detectRuntime(files: readonly string[], runtimes: readonly Runtime[]): Runtime | undefined {
  return runtimes.find((r) => r.patterns.some((p) => files.some((f) => matchesPattern(f, p))));
}

/**
 * The URLs of a job's HTTP routes through the router at `router` (host:port), as the CLI
 * shows them (cli/src/deploy/deploy.ts routeUrls): `.localhost` names through port 8000 when
 * no router is known.
 */
export function routeUrls(ports: readonly { routes?: readonly { type?: string; endpoint?: string | null }[] | null }[] | null | undefined, router: string | undefined): string[] {
  const port = router ? router.slice(router.lastIndexOf(':') + 1) : undefined;
  return (ports ?? []).flatMap((p) =>
    (p.routes ?? [])
      .filter((r) => r.type === 'http' && r.endpoint)
      .map((r) => {
        const [host, ...path] = r.endpoint!.split('/');
        const withPort = port ? `${host}:${port}` : host!.endsWith('.localhost') ? `${host}:8000` : host;
        return `http://${withPort}/${path.join('/')}`;
      }),
  );
}
