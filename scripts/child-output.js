// The output of a child process that the n8n host helper and the local npm registry start: copied
// to a log file when one is given, and its end kept for the message when the process fails.
'use strict';
const { createWriteStream } = require('node:fs');

/**
 * Reads `child`'s stdout and stderr: appends them to `logFile` when given and keeps their last
 * `keep` characters. `text()` is what is kept; `end()` closes the log file.
 */
function keepOutput(child, { logFile, keep }) {
	const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
	let output = '';
	const read = (chunk) => {
		output = (output + chunk).slice(-keep);
		log?.write(chunk);
	};
	child.stdout.on('data', read);
	child.stderr.on('data', read);
	return { text: () => output, end: () => log?.end() };
}

module.exports = { keepOutput };
