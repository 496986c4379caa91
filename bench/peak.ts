/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Loaded into `n8n execute` with `NODE_OPTIONS=--require` by the benchmarks: when the process
 * ends, it writes its peak resident memory (KiB) to `PROPRADAR_PEAK_FILE`. Processes that n8n
 * starts from it (task runners) inherit the option and write nothing.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.PROPRADAR_PEAK_FILE;
if (file && process.argv.includes('execute')) {
	process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
}
