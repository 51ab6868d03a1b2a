/** The built-in stagers, by runtime name (GET /runtimes). */
import type { Stager } from '../run.js';
import { bashStager } from './bash.js';
import { goStager } from './go.js';
import { javaStager } from './java.js';
import { nodejsStager } from './nodejs.js';
import { perlStager } from './perl.js';
import { phpStager } from './php.js';
import { pythonStager } from './python.js';
import { rubyStager } from './ruby.js';
import { staticSiteStager } from './static-site.js';

export const BUILTIN_STAGERS: Readonly<Record<string, Stager>> = {
  bash: bashStager,
  ruby: rubyStager,
  nodejs: nodejsStager,
  java: javaStager,
  perl: perlStager,
  php: phpStager,
  python: pythonStager,
  'static-site': staticSiteStager,
  go: goStager,
};

export { bashStager, goStager, javaStager, nodejsStager, perlStager, phpStager, pythonStager, rubyStager, staticSiteStager };
