import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes to $HOME/.n8n unless told otherwise; keep every test run in a temp folder.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'propradar-n8n-'));
process.env.N8N_LOG_LEVEL ??= 'silent';
