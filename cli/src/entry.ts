/** The bundled client's entry (esbuild, scripts/build-downloads.mjs): runs the command line and exits with its code. */
import { main } from './main.js';

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
