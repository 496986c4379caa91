/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes to $HOME/.n8n unless told otherwise: each test file runs with its own temp folder,
// removed when the file's tests are done. (Jest gives every test file its own copy of `process`, so
// a `process.on('exit')` here would never fire: the folder is removed in `afterAll`.)
if (!process.env.N8N_USER_FOLDER) {
	const folder = mkdtempSync(join(tmpdir(), 'propradar-n8n-'));
	process.env.N8N_USER_FOLDER = folder;
	afterAll(() => rmSync(folder, { recursive: true, force: true }));
}
process.env.N8N_LOG_LEVEL ??= 'silent';
