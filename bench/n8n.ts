/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/** The real n8n the benchmark runs (scripts/n8n-host.js) and the repository it runs from. */
import { join } from 'node:path';

/** The repository: the compiled benchmark runs from build/bench. */
export const ROOT = join(__dirname, '..', '..');

// The compiled benchmark runs from build/bench, so scripts/n8n-host.js is required by its path; its
// types are scripts/n8n-host.d.ts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const n8n = require(
	join(ROOT, 'scripts', 'n8n-host.js'),
) as typeof import('../scripts/n8n-host');
export type N8nHost = import('../scripts/n8n-host').N8nHost;
export type RunningN8n = import('../scripts/n8n-host').RunningN8n;
export type N8nClient = import('../scripts/n8n-host').N8nClient;
