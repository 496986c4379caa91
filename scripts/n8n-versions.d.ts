/** Types of scripts/n8n-versions.js (plain CommonJS, shared by the install scripts and the tests). */

/** The n8n of the demo, the benchmarks and the whole e2e tier. */
export const newest: string;
/** The oldest n8n the package supports. */
export const oldest: string;
/** A release as given to the install script: `newest`, `oldest`, or a release number. */
export function resolve(name?: string): string;
/** The folder a release is installed in. */
export function home(name?: string): string;
