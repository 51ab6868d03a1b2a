/**
 * @platform/stager-sdk: for people who write stagers.
 *
 * A stager is a program that a staging pipeline runs with STAGER_URL set. With
 * this SDK it is a function given a `StagerContext`:
 *
 *   import { runStager } from '@platform/stager-sdk';
 *   await runStager(async (ctx) => {
 *     await ctx.download();
 *     const app = await ctx.placeApp();
 *     await ctx.setStart('node index.js');
 *     await ctx.addDependency('runtime', 'node');
 *     await ctx.upload();
 *   });
 *
 * The test kit is `@platform/stager-sdk/testkit`; the built-in stagers are
 * `@platform/stager-sdk/stagers`.
 */
export { StagerClient, stagerUrlFromEnv, type MetaChange, type PackageMeta, type Requirement, type RequirementType, type Template } from './client.js';
export { StagerContext, type StagerLogger, type StagerOutcomeKind } from './context.js';
export { executeStager, runStager, type Stager, type StagerResult } from './run.js';
export { extractArchive, hashFile, packDirectory } from './archive.js';
export { STAGER_STATUS, StagerEnvironmentError, StagerRequestError, StagingError } from './errors.js';
