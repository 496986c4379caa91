import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes to $HOME/.n8n unless told otherwise; keep every test run in a temp folder,
// removed when the test process ends.
if (!process.env.N8N_USER_FOLDER) {
	const folder = mkdtempSync(join(tmpdir(), 'propradar-n8n-'));
	process.env.N8N_USER_FOLDER = folder;
	process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
}
process.env.N8N_LOG_LEVEL ??= 'silent';
