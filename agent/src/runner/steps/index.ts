/**
 * The setup steps of an instance, in the order they run (and the reverse of the order they are
 * released). To add one: a file here exporting an InstanceStep, and its place in this list.
 *
 *   logs ─▶ packages ─▶ ports ─▶ network ─▶ environment ─▶ templates ─▶ launch ─▶ root ─▶ files ─▶ cgroups
 *
 * Later steps read what earlier ones produced (network forwards the ports; environment reads
 * ports; templates and launch the environment, launch the network namespace; root the launch's
 * host paths), and `root` hands the files to the instance's uid only once every package and
 * template is in place; files (the platform's files, outside the root) need that uid.
 */
import type { InstanceStep } from '../context.js';
import { cgroupsStep } from './cgroups.js';
import { environmentStep } from './environment.js';
import { filesStep } from './files.js';
import { launchStep } from './launch.js';
import { logsStep } from './logs.js';
import { networkStep } from './network.js';
import { packagesStep } from './packages.js';
import { portsStep } from './ports.js';
import { rootStep } from './root.js';
import { templatesStep } from './templates.js';

export const INSTANCE_STEPS: readonly InstanceStep[] = [logsStep, packagesStep, portsStep, networkStep, environmentStep, templatesStep, launchStep, rootStep, filesStep, cgroupsStep];

export { ReleaseError, SetupAbortedError, StepError, StepRunner, type Step } from './step.js';
