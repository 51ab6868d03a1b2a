/**
 * The runtimes that built-in staging pipelines (`stagpipe::/platform::<runtime>`)
 * handle, with the file patterns by which a client recognizes an app of each.
 * A client tests them in this order and takes the first runtime with a match.
 */
export interface RuntimeEntry {
  runtime: string;
  patterns: string[];
}

export const RUNTIMES: readonly RuntimeEntry[] = [
  { runtime: 'bash', patterns: ['*.sh', 'bash_start.sh'] },
  { runtime: 'ruby', patterns: ['Gemfile', 'config.ru', '*.rb'] },
  { runtime: 'nodejs', patterns: ['package.json', '*.js', '*.mjs'] },
  { runtime: 'java', patterns: ['pom.xml', 'build.gradle', '*.jar', '*.war', '*.java'] },
  { runtime: 'perl', patterns: ['cpanfile', 'Makefile.PL', '*.pl', '*.pm'] },
  { runtime: 'php', patterns: ['composer.json', '*.php'] },
  { runtime: 'python', patterns: ['requirements.txt', 'runtime.txt', 'setup.py', 'pyproject.toml', '*.py'] },
  { runtime: 'static-site', patterns: ['index.html', 'index.htm'] },
  { runtime: 'go', patterns: ['go.mod', 'Godeps', '*.go'] },
];
